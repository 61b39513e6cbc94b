-- Up Migration

-- Dashboard sessions, kept server-side so that logging out, a password change or a plan change
-- ends them for good: a copied cookie stops working. The cookie holds a random token; only its
-- SHA-256 is stored.
CREATE TABLE sessions (
  id_hash bytea PRIMARY KEY CHECK (length(id_hash) = 32),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  -- Where the session was opened from (shown to the account holder, never to anyone else).
  client_address text,
  user_agent text,
  -- A one-time message for the next page (after a redirect).
  flash text
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Secrets the replicas share, made once by whichever starts first (SESSION_SECRET when unset).
CREATE TABLE app_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- E-mail addresses are compared as the service normalises them (trimmed, NFC, lower-cased);
-- addresses stored before are brought to that form (ASCII addresses lower-case the same way).
UPDATE users SET email = lower(email) WHERE email <> lower(email);

-- Down Migration
DROP TABLE app_secrets;
DROP TABLE sessions;
