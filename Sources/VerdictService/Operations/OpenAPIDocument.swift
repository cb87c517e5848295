/// The OpenAPI 3.1 description of every endpoint, served at `GET /openapi.yaml`. A test checks
/// that it lists exactly the routes the router serves.
enum OpenAPIDocument {
    static let yaml = #"""
openapi: 3.1.0
info:
  title: Verdict
  version: "0.3"
  description: |
    Self-hosted retention-offer and refund-decision service for App Store subscription apps.
    Every endpoint except /v1/notifications, /healthz, /readyz and /openapi.yaml needs
    `Authorization: Bearer <token>` with a token from VERDICT_API_TOKENS.
    Errors are `{"error": {"code": "…", "message": "…"}}`.
servers:
  - url: http://127.0.0.1:8080
security:
  - bearer: []
components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
  schemas:
    Error:
      type: object
      required: [error]
      properties:
        error:
          type: object
          required: [code, message]
          properties:
            code: {type: string}
            message: {type: string}
    Check:
      type: object
      properties:
        ready: {type: boolean}
        detail: {type: string}
    Job:
      type: object
      properties:
        id: {type: integer, format: int64}
        kind: {type: string}
        state: {type: string, enum: [queued, running, done, dead]}
        attempts: {type: integer}
        maxAttempts: {type: integer}
        notificationUUID: {type: string}
        runAt: {type: integer, format: int64, description: UNIX ms}
        deadline: {type: integer, format: int64, description: UNIX ms}
        lastError: {type: string}
        updatedAt: {type: integer, format: int64, description: UNIX ms}
    Decision:
      type: object
      properties:
        id: {type: string}
        originalTransactionId: {type: string}
        notificationUUID: {type: string}
        trigger: {type: string, description: "AUTO_RENEW_DISABLED, EXPIRED, … (the notification's subtype or type)"}
        bundleHash: {type: string}
        ruleId: {type: string}
        ruleLine: {type: integer}
        offer: {type: object, properties: {id: {type: string}, type: {type: string}}, description: "The offer made (held out: the one it would have been)"}
        productId: {type: string}
        heldOut: {type: boolean}
        decidedAt: {type: integer, format: int64}
        expiresAt: {type: integer, format: int64}
        record: {type: object, description: "decision (the engine's record), explanation (text), facts (the document decided on)"}
"""# + "\n" + refundComponents + "\n" + #"""
  responses:
    ConsentLedger:
      description: The consent basis now, and the ledger, for the token or originalTransactionId asked for
      content:
        application/json:
          schema:
            type: object
            properties:
              appAccountToken: {type: string, format: uuid}
              originalTransactionId: {type: string}
              current: {$ref: "#/components/schemas/Consent"}
              history: {type: array, items: {$ref: "#/components/schemas/Consent"}}
    Decision:
      description: A decision record
      content:
        application/json:
          schema: {$ref: "#/components/schemas/Decision"}
    Attributes:
      description: The customer's attributes
      content:
        application/json:
          schema:
            type: object
            properties:
              appAccountToken: {type: string, format: uuid}
              attributes: {type: object, additionalProperties: true}
              updatedAt: {type: integer, format: int64, description: UNIX ms}
    Error:
      description: An error
      content:
        application/json:
          schema: {$ref: "#/components/schemas/Error"}
paths:
  /v1/notifications:
    post:
      summary: Receive an App Store Server Notification V2 (Apple's exact body)
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [signedPayload]
              properties:
                signedPayload: {type: string, description: JWS signed by the App Store}
      responses:
        "200":
          description: Durably stored (accepted) or already stored (duplicate)
          content:
            application/json:
              schema:
                type: object
                properties:
                  notificationUUID: {type: string}
                  status: {type: string, enum: [accepted, duplicate]}
        "400": {$ref: "#/components/responses/Error"}
        "413": {$ref: "#/components/responses/Error"}
        "415": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
        "503": {$ref: "#/components/responses/Error"}
  /v1/notifications/{notificationUUID}:
    get:
      summary: A stored notification, its processing state, attempts and result
      parameters:
        - {name: notificationUUID, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The notification
          content:
            application/json:
              schema:
                type: object
                properties:
                  notificationUUID: {type: string}
                  notificationType: {type: string}
                  subtype: {type: string}
                  environment: {type: string}
                  originalTransactionId: {type: string}
                  transactionId: {type: string}
                  signedDate: {type: integer, format: int64}
                  receivedAt: {type: integer, format: int64}
                  source: {type: string, enum: [delivery, backfill, reconcile]}
                  state: {type: string, enum: [received, processed, failed]}
                  attempts: {type: integer}
                  lastError: {type: string}
                  processedAt: {type: integer, format: int64}
                  processedCount: {type: integer}
                  result: {description: The processing result}
                  content: {description: The verified payload with its nested transaction and renewal info}
        "401": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
  /v1/jobs:
    get:
      summary: Jobs in one state (dead jobs by default), newest first
      parameters:
        - {name: state, in: query, schema: {type: string, enum: [queued, running, done, dead], default: dead}}
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 500, default: 50}}
      responses:
        "200":
          description: The jobs
          content:
            application/json:
              schema:
                type: object
                properties:
                  jobs: {type: array, items: {$ref: "#/components/schemas/Job"}}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
"""# + "\n" + offerPaths + "\n" + refundPaths + "\n" + #"""
  /v1/rules:
    get:
      summary: The active rule bundle and the last refused candidate
      responses:
        "200":
          description: The bundle
          content:
            application/json:
              schema:
                type: object
                properties:
                  directory: {type: string}
                  hash: {type: string, description: "sha256:… of the bundle files; absent when no bundle is loaded"}
                  loadedAt: {type: integer, format: int64, description: UNIX ms}
                  rules:
                    type: array
                    items:
                      type: object
                      properties:
                        id: {type: string}
                        file: {type: string}
                        line: {type: integer}
                  offers:
                    type: array
                    items:
                      type: object
                      properties:
                        id: {type: string}
                        type: {type: string, enum: [PROMOTIONAL, WIN_BACK]}
                        productIds: {type: array, items: {type: string}}
                  lastRejected:
                    type: object
                    description: Absent when no candidate was refused since start
                    properties:
                      at: {type: integer, format: int64}
                      hash: {type: string}
                      errors:
                        type: array
                        items:
                          type: object
                          properties:
                            severity: {type: string}
                            file: {type: string}
                            line: {type: integer}
                            column: {type: integer}
                            length: {type: integer}
                            message: {type: string}
                            sourceLine: {type: string}
                            suggestion: {type: string}
                            help: {type: string}
                      failedTests: {type: string}
                      text: {type: string, description: The errors and failing tests as verdict rules check prints them}
        "401": {$ref: "#/components/responses/Error"}
  /v1/customers/{customerId}/attributes:
    put:
      summary: Replace the attributes rules read as customer.attributes (checked against the bundle's declared types)
      parameters:
        - {name: customerId, in: path, required: true, description: The customer's appAccountToken, schema: {type: string, format: uuid}}
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, additionalProperties: true}
      responses:
        "200": {$ref: "#/components/responses/Attributes"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "413": {$ref: "#/components/responses/Error"}
        "415": {$ref: "#/components/responses/Error"}
        "422": {$ref: "#/components/responses/Error"}
        "503": {$ref: "#/components/responses/Error"}
    get:
      summary: The attributes set for a customer
      parameters:
        - {name: customerId, in: path, required: true, description: The customer's appAccountToken, schema: {type: string, format: uuid}}
      responses:
        "200": {$ref: "#/components/responses/Attributes"}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
  /v1/customers/{customerId}/offer:
    get:
      summary: The customer's pending offer with fresh signatures, or {"offer":null}
      parameters:
        - {name: customerId, in: path, required: true, description: The subscription's originalTransactionId, schema: {type: string}}
        - {name: format, in: query, schema: {type: string, enum: [v1, jws, both], default: both}}
      responses:
        "200":
          description: The pending offer (win-back offers carry no signature)
          content:
            application/json:
              schema:
                type: object
                required: [offer]
                properties:
                  decisionId: {type: string}
                  ruleId: {type: string}
                  explanation: {type: string}
                  offer:
                    type: [object, "null"]
                    properties:
                      type: {type: string, enum: [PROMOTIONAL, WIN_BACK]}
                      productId: {type: string}
                      offerId: {type: string}
                      expiresAt: {type: integer, format: int64, description: UNIX ms}
                      signature: {type: object, description: V1 (keyIdentifier, nonce, timestamp, signature)}
                      jws: {type: string}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "503": {$ref: "#/components/responses/Error"}
  /v1/offers/decide:
    post:
      summary: Decide now (e.g. on the app's cancel screen); recorded like notification decisions
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              description: One of originalTransactionId, transactionId, appAccountToken
              properties:
                originalTransactionId: {type: string}
                transactionId: {type: string}
                appAccountToken: {type: string, format: uuid}
                trigger: {type: string, enum: [AUTO_RENEW_DISABLED, EXPIRED, IN_APP], default: IN_APP}
                format: {type: string, enum: [v1, jws, both], default: both}
      responses:
        "200":
          description: "The decision and its offer (offer null when none is made); same shape as the pending offer, plus heldOut"
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
        "503": {$ref: "#/components/responses/Error"}
  /v1/decisions/{decisionId}:
    get:
      summary: One decision record with its explanation and the facts it was made on
      parameters:
        - {name: decisionId, in: path, required: true, schema: {type: string}}
      responses:
        "200": {$ref: "#/components/responses/Decision"}
        "401": {$ref: "#/components/responses/Error"}
        "404": {$ref: "#/components/responses/Error"}
  /v1/decisions:
    get:
      summary: A customer's decisions, newest first
      parameters:
        - {name: originalTransactionId, in: query, required: true, schema: {type: string}}
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 200, default: 20}}
      responses:
        "200":
          description: The decisions
          content:
            application/json:
              schema:
                type: object
                properties:
                  decisions: {type: array, items: {$ref: "#/components/schemas/Decision"}}
        "400": {$ref: "#/components/responses/Error"}
        "401": {$ref: "#/components/responses/Error"}
  /healthz:
    get:
      summary: The process is up
      security: []
      responses:
        "200": {description: Up}
  /readyz:
    get:
      summary: Database reachable, migrations applied, rules loaded; App Store key present or why not
      security: []
      responses:
        "200":
          description: Ready
          content:
            application/json:
              schema:
                type: object
                properties:
                  ready: {type: boolean}
                  database: {$ref: "#/components/schemas/Check"}
                  migrations: {$ref: "#/components/schemas/Check"}
                  rules: {$ref: "#/components/schemas/Check"}
                  appStoreAPI: {$ref: "#/components/schemas/Check"}
        "503": {description: Not ready (same body)}
  /metrics:
    get:
      summary: Prometheus metrics
      responses:
        "200":
          description: Prometheus text exposition
          content:
            text/plain: {}
        "401": {$ref: "#/components/responses/Error"}
  /openapi.yaml:
    get:
      summary: This document
      security: []
      responses:
        "200":
          description: OpenAPI 3.1
          content:
            application/yaml: {}
"""#
}
