-- An Idempotency-Key is an application's own: with keys per account, a token limited to one
-- application was told 409 for a key another application had used, so it learnt that the key
-- existed and could claim, in advance, the keys another application's CI would use. Keys that
-- were recorded before are kept under the application their answer names (the Create answer's
-- `schema.application`); a key whose answer names none is dropped (keys live 24 hours).
ALTER TABLE idempotency_keys ADD COLUMN application_id bigint REFERENCES applications (id);

UPDATE idempotency_keys AS k SET application_id = a.id
FROM applications AS a
WHERE a.account_id = k.account_id
  AND a.code = CASE WHEN k.response_body LIKE '{%' THEN k.response_body::jsonb -> 'schema' ->> 'application' END;

DELETE FROM idempotency_keys WHERE application_id IS NULL;

ALTER TABLE idempotency_keys ALTER COLUMN application_id SET NOT NULL;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (account_id, application_id, key);
