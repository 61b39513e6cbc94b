-- Up Migration

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  -- argon2id, PHC string format (parameters and salt included).
  password_hash text NOT NULL,
  plan text NOT NULL CHECK (plan IN ('FREE', 'PRO', 'ENTERPRISE')),
  created_at timestamptz NOT NULL DEFAULT now(),
  plan_changed_at timestamptz NOT NULL DEFAULT now()
);
-- E-mail addresses are unique whatever their case.
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- Every plan a user has held, with when it started (no payment provider: changes apply at once).
CREATE TABLE plan_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  from_plan text CHECK (from_plan IN ('FREE', 'PRO', 'ENTERPRISE')),
  to_plan text NOT NULL CHECK (to_plan IN ('FREE', 'PRO', 'ENTERPRISE')),
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX plan_changes_user ON plan_changes (user_id, changed_at);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- The first characters of the key, to tell keys apart in the dashboard. Never the whole key.
  display_prefix text NOT NULL,
  -- SHA-256 of the whole key: enough for random keys, and what look-ups use.
  key_hash bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_user ON api_keys (user_id, created_at);

-- Down Migration
DROP TABLE api_keys;
DROP TABLE plan_changes;
DROP TABLE users;
