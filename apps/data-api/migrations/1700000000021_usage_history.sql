-- Up Migration

-- Each key's count of one past UTC day, rolled from Redis after the day ends by whichever
-- instance gets there first: (key_id, day) is the primary key and rows are written with
-- INSERT ... ON CONFLICT DO NOTHING, so no day is ever written twice. About 400 days are kept.
CREATE TABLE usage_daily (
  key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  day date NOT NULL,
  requests integer NOT NULL CHECK (requests >= 0),
  PRIMARY KEY (key_id, day)
);
CREATE INDEX usage_daily_day ON usage_daily (day);

-- The days whose every key has been rolled (the job skips them).
CREATE TABLE usage_rollups (
  day date PRIMARY KEY,
  rolled_at timestamptz NOT NULL DEFAULT now(),
  keys integer NOT NULL
);

-- Down Migration
DROP TABLE usage_rollups;
DROP TABLE usage_daily;
