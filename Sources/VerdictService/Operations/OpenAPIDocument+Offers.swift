extension OpenAPIDocument {
    /// The offer, customer and decision paths of the document (app backends' endpoints).
    static let offerPaths = #"""
  /v1/offers/signatures:
    post:
      summary: Sign a promotional offer from the rule bundle's catalog (V1 signature and/or JWS)
      description: |
        Every nonce is fresh, reserved for 24 hours and never issued twice; every signature is
        verified with the key's public half before it is returned. Win-back offers carry no signature.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [productId, offerId]
              properties:
                productId: {type: string}
                offerId: {type: string, description: A PROMOTIONAL offer listed in catalog.yaml for productId}
                appAccountToken: {type: string, format: uuid, description: "V1: signed lowercased; empty when absent"}
                transactionId: {type: string, description: "JWS: any transaction id of the customer (recommended)"}
                format: {type: string, enum: [v1, jws, both], default: both}
      responses:
        "200":
          description: The signatures
          content:
            application/json:
              schema:
                type: object
                properties:
                  productId: {type: string}
                  offerId: {type: string}
                  type: {type: string, enum: [PROMOTIONAL]}
                  signature:
                    type: object
                    description: "For Product.SubscriptionOffer.Signature (Base64-decode `signature` into Data)"
                    properties:
                      keyIdentifier: {type: string}
                      nonce: {type: string, format: uuid}
                      timestamp: {type: integer, format: int64, description: UNIX ms}
                      signature: {type: string, description: Base64 of the DER ECDSA signature}
                  jws: {type: string, description: "For Product.PurchaseOption.promotionalOffer(_:compactJWS:)"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "413": {$ref: "#/components/responses/Error"}
        "415": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
        "503": {$ref: "#/components/responses/Error"}
  /v1/rules/stats:
    get:
      summary: Per offer rule (treatment vs holdout) and per refund rule (requests, sent, not sent, Apple's outcomes)
      responses:
        "200":
          description: The statistics (conversion rates are absent without a denominator)
          content:
            application/json:
              schema:
                type: object
                properties:
                  attributionWindowDays:
                    type: integer
                    description: Outcomes count only when the customer acted within this many days after the offer expired
                  rules:
                    type: array
                    items:
                      type: object
                      properties:
                        ruleId: {type: string}
                        decisions: {type: integer}
                        offersMade: {type: integer}
                        heldOut: {type: integer}
                        redeemed: {type: integer}
                        convertedTreatment: {type: integer}
                        convertedHoldout: {type: integer}
                        conversionTreatment: {type: number}
                        conversionHoldout: {type: number}
                  refundRules:
                    type: array
                    description: Per refund rule, veto (requests it blocked) or `default` (no rule matched)
                    items:
                      type: object
                      properties:
                        ruleId: {type: string}
                        requests: {type: integer}
                        sent: {type: integer}
                        notSentNoConsent: {type: integer}
                        notSentOther: {type: integer}
                        failed: {type: integer}
                        missed: {type: integer}
                        granted: {type: integer}
                        declined: {type: integer}
                        reversed: {type: integer}
        "401": {$ref: "#/components/responses/Error"}
"""#
}
