-- Up Migration

-- What happened to an account, for its holder: sign-ins (and failed ones), keys, plan, password
-- and e-mail changes, with the time and the client address. Never a secret: no password, key or
-- cookie; `detail` holds names and prefixes only.
CREATE TABLE account_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL CHECK (kind IN (
    'account_created', 'signed_in', 'sign_in_failed', 'key_created', 'key_rolled', 'key_revoked',
    'key_expired', 'key_renamed', 'plan_changed', 'password_changed', 'email_changed')),
  client_address text,
  detail jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX account_events_user ON account_events (user_id, at DESC, id DESC);

-- Down Migration
DROP TABLE account_events;
