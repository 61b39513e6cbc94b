-- Up Migration

-- An operator may disable an account (the admin CLI): its keys answer 403 ACCOUNT_DISABLED and it
-- cannot sign in, until it is enabled again. NULL: enabled.
ALTER TABLE users ADD COLUMN disabled_at timestamptz;

-- Who caused an event: the account's holder ('user'), an operator with the admin CLI ('admin'),
-- or the service itself ('system': a key reaching its expiry).
ALTER TABLE account_events
  ADD COLUMN actor text NOT NULL DEFAULT 'user' CHECK (actor IN ('user', 'admin', 'system'));
UPDATE account_events SET actor = 'system' WHERE kind = 'key_expired';

ALTER TABLE account_events DROP CONSTRAINT account_events_kind_check;
ALTER TABLE account_events ADD CONSTRAINT account_events_kind_check CHECK (kind IN (
  'account_created', 'signed_in', 'sign_in_failed', 'key_created', 'key_rolled', 'key_revoked',
  'key_expired', 'key_renamed', 'plan_changed', 'password_changed', 'email_changed',
  'account_disabled', 'account_enabled', 'key_usage_reset'));

-- Down Migration
DELETE FROM account_events WHERE kind IN ('account_disabled', 'account_enabled', 'key_usage_reset');
ALTER TABLE account_events DROP CONSTRAINT account_events_kind_check;
ALTER TABLE account_events ADD CONSTRAINT account_events_kind_check CHECK (kind IN (
  'account_created', 'signed_in', 'sign_in_failed', 'key_created', 'key_rolled', 'key_revoked',
  'key_expired', 'key_renamed', 'plan_changed', 'password_changed', 'email_changed'));
ALTER TABLE account_events DROP COLUMN actor;
ALTER TABLE users DROP COLUMN disabled_at;
