-- Up Migration

-- A counter of changes to what the service keeps in memory (the quote store's ids and sample,
-- the catalog's authors, tags and filtered-random indexes): every statement that writes quotes,
-- quote_tags, authors or tags adds one, in its own transaction, so the new value is seen exactly
-- when the change is. A replica reads it before each periodic reload and skips the reload when
-- nothing changed: at a million quotes the catalog alone is two seconds of queries and parsing
-- every CORPUS_REFRESH_SECONDS. Statement-level triggers: one UPDATE per statement, however
-- many rows it writes (a synthetic load of a million quotes adds a few hundred). The one row
-- also orders concurrent writers of these tables (each holds it until it commits): only the seed
-- and the synthetic load write them, one statement after another.
CREATE TABLE corpus_version (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  version bigint NOT NULL
);
INSERT INTO corpus_version (version) VALUES (1);

CREATE FUNCTION corpus_changed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
    BEGIN
      UPDATE corpus_version SET version = version + 1;
      RETURN NULL;
    END
  $$;

CREATE TRIGGER quotes_corpus_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON quotes
  FOR EACH STATEMENT EXECUTE FUNCTION corpus_changed();
CREATE TRIGGER quote_tags_corpus_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON quote_tags
  FOR EACH STATEMENT EXECUTE FUNCTION corpus_changed();
CREATE TRIGGER authors_corpus_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON authors
  FOR EACH STATEMENT EXECUTE FUNCTION corpus_changed();
CREATE TRIGGER tags_corpus_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tags
  FOR EACH STATEMENT EXECUTE FUNCTION corpus_changed();

-- Down Migration
DROP TRIGGER tags_corpus_changed ON tags;
DROP TRIGGER authors_corpus_changed ON authors;
DROP TRIGGER quote_tags_corpus_changed ON quote_tags;
DROP TRIGGER quotes_corpus_changed ON quotes;
DROP FUNCTION corpus_changed();
DROP TABLE corpus_version;
