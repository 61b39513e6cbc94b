-- Up Migration

-- Authors and tags, each with a slug for URLs (/authors/:slug, ?tag=:slug). Slugs are assigned
-- once, when a name is first seen (see src/lib/slug.ts), and never change, so links stay valid.
CREATE TABLE authors (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE CHECK (length(name) > 0),
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$')
);

CREATE TABLE tags (
  id serial PRIMARY KEY,
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  -- The name as the source spells it (the first one seen for this slug).
  name text NOT NULL CHECK (length(name) > 0)
);

-- author_id is filled by seeding (and the synthetic loader); rows from before this migration are
-- NULL until the next start re-seeds them (the partial index finds them without a scan).
-- length drives the minLength/maxLength filters of the random quote.
ALTER TABLE quotes
  ADD COLUMN author_id integer REFERENCES authors (id),
  ADD COLUMN length integer GENERATED ALWAYS AS (char_length(quote)) STORED;

CREATE INDEX quotes_without_author ON quotes (num) WHERE author_id IS NULL;
-- Index-only scans that load the random-pick indexes in (group, length, num) order.
CREATE INDEX quotes_author_length ON quotes (author_id, length, num);
CREATE INDEX quotes_length ON quotes (length, num);

CREATE TABLE quote_tags (
  tag_id integer NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  num integer NOT NULL REFERENCES quotes (num) ON DELETE CASCADE,
  PRIMARY KEY (tag_id, num)
);
CREATE INDEX quote_tags_num ON quote_tags (num);

-- What the read side serves: a quote with its author's slug and its tags' slugs.
CREATE VIEW quote_view AS
SELECT q.num, q.quote, q.author, a.slug AS author_slug,
       ARRAY(SELECT t.slug FROM quote_tags qt JOIN tags t ON t.id = qt.tag_id
              WHERE qt.num = q.num ORDER BY t.slug) AS tags
  FROM quotes q LEFT JOIN authors a ON a.id = q.author_id;

-- The quote of the day: drawn once per UTC day by whichever instance asks first, then the same
-- for everyone. A quote deleted since is drawn again (the row goes with it).
CREATE TABLE quote_of_the_day (
  day date PRIMARY KEY,
  num integer NOT NULL REFERENCES quotes (num) ON DELETE CASCADE
);

-- Down Migration
DROP TABLE quote_of_the_day;
DROP VIEW quote_view;
DROP TABLE quote_tags;
ALTER TABLE quotes DROP COLUMN length, DROP COLUMN author_id;
DROP TABLE tags;
DROP TABLE authors;
