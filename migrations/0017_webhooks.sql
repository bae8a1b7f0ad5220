-- Webhooks: an application's subscriptions, each a consumer of the change feed with its own
-- position in it. The feed stays the one source of truth: a subscription stores only how far it
-- has delivered, never a copy of the events.
--
-- Delivery is per subscription and in feed order: the event after `position` is sent, and only
-- its success (or the subscription being disabled) moves the position, so a failing event holds
-- the ones behind it for that subscription only. A replica takes a subscription by setting its
-- lease (claimed with FOR UPDATE SKIP LOCKED, so two replicas never take the same one); a
-- replica killed mid-delivery leaves the lease to run out, and another sends the event again.
-- Receivers dedupe by webhook-id, which names the event, not the attempt.
--
-- The signing secrets are stored as issued: the registry must compute HMACs with them, so they
-- cannot be hashed. Access to this table is access to the secrets (see the README).
CREATE TABLE webhook_subscriptions (
    id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    application_id        bigint NOT NULL REFERENCES applications (id),
    url                   text NOT NULL CHECK (octet_length(url) <= 2048),
    -- The feed kinds wanted, a subset of change_events.kind.
    events                text[] NOT NULL,
    -- Only events of types whose name starts with these bytes ('' for all). A policy change of
    -- the application itself names no type and passes only the empty prefix.
    type_prefix           text COLLATE "C" NOT NULL DEFAULT '' CHECK (octet_length(type_prefix) <= 200),
    description           text NOT NULL DEFAULT '' CHECK (octet_length(description) <= 1000),
    enabled               boolean NOT NULL DEFAULT true,
    disabled_reason       text,
    secret                text NOT NULL,
    -- The secret before the last rotation, signing beside the new one until previous_until.
    previous_secret       text,
    previous_until        timestamptz,
    -- The feed position of the last event handled (delivered, or skipped by the filter).
    position_xid          xid8 NOT NULL,
    position_id           bigint NOT NULL DEFAULT 0,
    -- The event after the position failed this many times in a row, first at first_failure_at.
    failures              integer NOT NULL DEFAULT 0,
    first_failure_at      timestamptz,
    next_attempt_at       timestamptz NOT NULL DEFAULT now(),
    lease_holder          text,
    lease_until           timestamptz,
    created               timestamptz NOT NULL DEFAULT now(),
    updated               timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhook_subscriptions_application ON webhook_subscriptions (application_id, id);
CREATE INDEX webhook_subscriptions_due ON webhook_subscriptions (next_attempt_at) WHERE enabled;

-- Deliveries asked for beside the feed: a test event, or one event sent again. Sent before the
-- feed's next event, oldest first, and deleted once sent (or given up on).
CREATE TABLE webhook_extra_deliveries (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscription_id bigint NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    kind            text NOT NULL CHECK (kind IN ('test', 'redeliver')),
    -- The feed event sent again; NULL for a test event.
    event_xid       xid8,
    event_id        bigint,
    failures        integer NOT NULL DEFAULT 0,
    created         timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhook_extra_deliveries_subscription ON webhook_extra_deliveries (subscription_id, id);

-- Every attempt, newest kept: pruned to the newest rows per subscription by the workers.
CREATE TABLE webhook_attempts (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscription_id bigint NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    at              timestamptz NOT NULL DEFAULT now(),
    message_id      text NOT NULL,
    event_type      text NOT NULL,
    -- 0 when no response arrived.
    status          integer NOT NULL,
    succeeded       boolean NOT NULL,
    latency_ms      integer NOT NULL,
    error           text NOT NULL DEFAULT '' CHECK (octet_length(error) <= 1000),
    response_head   text NOT NULL DEFAULT '' CHECK (octet_length(response_head) <= 1000),
    replica         text NOT NULL DEFAULT ''
);

CREATE INDEX webhook_attempts_subscription ON webhook_attempts (subscription_id, id DESC);

-- The audit trail records managing webhooks, and a subscription disabled after its retries ran out.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_action_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_action_check CHECK (action IN (
    'publish', 'delete', 'policy_change', 'token_issue', 'token_revoke', 'token_expiry_change',
    'application_create', 'import', 'state_change', 'latest_pin', 'metadata_change',
    'webhook_create', 'webhook_update', 'webhook_delete', 'webhook_rotate_secret', 'webhook_redeliver',
    'webhook_disable'));
