-- Webhook signing secrets may be sealed at rest. A secret column holds one of two forms:
--   whsec_<base64 key>                       as issued, while the operator set no
--                                            REGISTRY_WEBHOOK_SECRET_KEY
--   v1:<key id>:<base64 nonce|ciphertext|tag> sealed with AES-256-GCM under the operator's key,
--                                            the key id 8 hex digits naming that key
-- The service seals and opens them (the key never reaches the database); these checks refuse
-- any other text, so nothing written around the service can leave a secret no delivery can
-- sign with. Every existing secret was written by the service as issued, so the checks hold.
ALTER TABLE webhook_subscriptions
    ADD CONSTRAINT webhook_subscriptions_secret_form
        CHECK (secret ~ '^(whsec_[A-Za-z0-9+/=]+|v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+)$'),
    ADD CONSTRAINT webhook_subscriptions_previous_secret_form
        CHECK (previous_secret ~ '^(whsec_[A-Za-z0-9+/=]+|v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+)$');
