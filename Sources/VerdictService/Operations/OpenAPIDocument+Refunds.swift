extension OpenAPIDocument {
    /// The refund flow's paths: consent ledger, app-reported facts, consumption request records.
    static let refundPaths = #"""
\#(consentPath("/v1/customers/{customerId}/consent", parameter: tokenParameter))\#(consentPath(
    "/v1/subscriptions/{originalTransactionId}/consent", parameter: chainParameter))
  /v1/transactions/{transactionId}/facts:
    put:
      summary: Replace what the app knows about a purchase (read by refund rules as usage.*)
      parameters:
        - {name: transactionId, in: path, required: true, schema: {type: string, pattern: "^[0-9]+$"}}
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/TransactionFacts"}
      responses:
        "200":
          description: The stored facts
          content:
            application/json:
              schema: {$ref: "#/components/schemas/TransactionFacts"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "413": {$ref: "#/components/responses/Error"}
        "415": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
    get:
      summary: What the app reported about a purchase
      parameters:
        - {name: transactionId, in: path, required: true, schema: {type: string, pattern: "^[0-9]+$"}}
      responses:
        "200":
          description: The stored facts
          content:
            application/json:
              schema: {$ref: "#/components/schemas/TransactionFacts"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
  /v1/consumption/{transactionId}:
    get:
      summary: The newest refund request for a purchase in full, with earlier ones under `earlier`
      parameters:
        - {name: transactionId, in: path, required: true, schema: {type: string, pattern: "^[0-9]+$"}}
      responses:
        "200":
          description: The record
          content:
            application/json:
              schema:
                allOf:
                  - {$ref: "#/components/schemas/ConsumptionRequest"}
                  - type: object
                    properties:
                      earlier: {type: array, items: {$ref: "#/components/schemas/ConsumptionRequest"}}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
  /v1/consumption:
    get:
      summary: The newest refund requests of any purchase
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 200, default: 20}}
      responses:
        "200":
          description: The records, newest first
          content:
            application/json:
              schema:
                type: object
                properties:
                  requests: {type: array, items: {$ref: "#/components/schemas/ConsumptionRequest"}}
        "401": {$ref: "#/components/responses/Error"}
"""#

    /// The refund flow's response and schema components.
    static let refundComponents = #"""
    TransactionFacts:
      type: object
      additionalProperties: false
      properties:
        transactionId: {type: string, readOnly: true}
        deliveryStatus: {type: string, enum: [DELIVERED, UNDELIVERED_QUALITY_ISSUE, UNDELIVERED_WRONG_ITEM, UNDELIVERED_SERVER_OUTAGE, UNDELIVERED_OTHER]}
        consumptionPercentage: {type: integer, minimum: 0, maximum: 100000, description: "Apple's milliunits (67.5 % = 67500); rules read whole percent"}
        sampleContentProvided: {type: boolean}
        sessionsSincePurchase: {type: integer, minimum: 0}
        final: {type: boolean, description: "true: nothing more will be reported; a refund request waiting for these facts is decided now"}
        updatedAt: {type: integer, format: int64, readOnly: true}
    Consent:
      type: object
      properties:
        basis: {type: string, enum: [recorded, assumed, refused, none]}
        consented: {type: boolean}
        at: {type: integer, format: int64}
        source: {type: string}
        termsVersion: {type: string}
        recordedAt: {type: integer, format: int64}
        appAccountToken: {type: string, format: uuid, description: The key the entry was recorded under (a token)}
        originalTransactionId: {type: string, description: The key the entry was recorded under (a chain)}
    ConsumptionRequest:
      type: object
      properties:
        id: {type: string, format: uuid}
        notificationUUID: {type: string}
        transactionId: {type: string}
        originalTransactionId: {type: string}
        appAccountToken: {type: string}
        environment: {type: string}
        consumptionRequestReason: {type: string}
        requestedAt: {type: integer, format: int64, description: The notification's signedDate}
        deadline: {type: integer, format: int64, description: requestedAt + 12 hours}
        decidedAt: {type: integer, format: int64}
        bundleHash: {type: string}
        ruleId: {type: string}
        ruleLine: {type: integer}
        blockedBy: {type: string}
        consentBasis: {type: string, enum: [recorded, assumed, refused, none]}
        state: {type: string, enum: [pending, sent, failed, not_sent, missed]}
        body: {type: object, description: The exact Send Consumption Information body (null when nothing is sent)}
        sentAt: {type: integer, format: int64}
        lastError: {type: string}
        attempts:
          type: array
          items:
            type: object
            properties:
              attempt: {type: integer}
              at: {type: integer, format: int64}
              httpStatus: {type: integer}
              errorCode: {type: integer}
              errorMessage: {type: string}
              result: {type: string, enum: [sent, retry, failed, missed]}
              retryAt: {type: integer, format: int64}
        outcome: {type: string, enum: [REFUND, REFUND_DECLINED, REFUND_REVERSED]}
        outcomeAt: {type: integer, format: int64}
        outcomes: {type: array, items: {type: object}}
        repeats: {type: array, items: {type: object}}
        record:
          type: object
          description: "decision (rule, trace, corrections), explanation (text), facts, consent, body (sources, corrections), notSentReason"
"""#
    static let tokenParameter = """
        {name: customerId, in: path, required: true, description: The customer's appAccountToken, schema: {type: string, format: uuid}}
        """
    static let chainParameter = """
        {name: originalTransactionId, in: path, required: true, description: "A subscription or purchase chain (all its renewals), for purchases without an appAccountToken", schema: {type: string, pattern: "^[0-9A-Za-z]{1,64}$"}}
        """

    /// The consent ledger's path item at `path`, keyed by the path parameter `parameter` (YAML flow mapping).
    static func consentPath(_ path: String, parameter: String) -> String {
        """
  \(path):
    put:
      summary: Append the customer's answer to the consent ledger (history is kept)
      description: |
        Consumption information is sent to Apple only when the newest entry for the purchase's
        appAccountToken or originalTransactionId consents (or, with no entry at all, when
        VERDICT_ASSUME_CONSENT=true).
      parameters:
        - \(parameter)
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [consented, source]
              additionalProperties: false
              properties:
                consented: {type: boolean}
                at: {description: "When the customer answered: UNIX ms or ISO 8601 (default: now)", oneOf: [{type: integer}, {type: string, format: date-time}]}
                source: {type: string, maxLength: 200, description: "Where the answer came from, e.g. settings-screen"}
                termsVersion: {type: string, maxLength: 200}
      responses:
        "200": {$ref: "#/components/responses/ConsentLedger"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "413": {$ref: "#/components/responses/Error"}
        "415": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
    get:
      summary: The customer's current consent basis and ledger, newest first
      parameters:
        - \(parameter)
      responses:
        "200": {$ref: "#/components/responses/ConsentLedger"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}

"""
    }
}
