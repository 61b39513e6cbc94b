-- Runs once, on the first start of the postgres service with an empty data volume
-- (/docker-entrypoint-initdb.d). Each service owns its database: quotes -> `quotes`,
-- data-api -> `data_api`. The services would also create them at start-up when their role may;
-- creating them here keeps the stack working with a role that may not.
CREATE DATABASE quotes;
CREATE DATABASE data_api;
