-- Up Migration

-- Keys may expire: chosen at creation (7, 30 or 90 days), or set by a roll (the old key lives on
-- for the grace period the user picked). An expired key is refused with KEY_EXPIRED.
ALTER TABLE api_keys
  ADD COLUMN expires_at timestamptz,
  -- The key that replaced this one when it was rolled.
  ADD COLUMN rolled_to uuid REFERENCES api_keys (id) ON DELETE SET NULL,
  -- Whether the activity log has recorded the expiry (written once, by whichever instance
  -- notices it first).
  ADD COLUMN expiry_recorded boolean NOT NULL DEFAULT false;
CREATE INDEX api_keys_expiry_unrecorded ON api_keys (expires_at)
  WHERE expires_at IS NOT NULL AND NOT expiry_recorded;

-- Down Migration
DROP INDEX api_keys_expiry_unrecorded;
ALTER TABLE api_keys DROP COLUMN expiry_recorded, DROP COLUMN rolled_to, DROP COLUMN expires_at;
