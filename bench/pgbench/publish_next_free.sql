-- The service's publish-next-free statement (PostgresSchemaStore.publishNextFree: allocate, insert,
-- and read the earlier distinct live texts), on a random type among the first :ntypes (1 = one hot
-- type). bench/run.sh passes -D app=<application id> -D ntypes=<types> -D schema=<the schema text the
-- wrk publish scripts send> -D utc_format='YYYY-MM-DD"T"HH24:MI:SS"Z"' (a variable because pgbench
-- would take :MI and :SS inside the literal for variables), and runs pgbench with the service's
-- session settings (PGOPTIONS: plan_cache_mode=force_generic_plan).
-- pgbench has no string variables, so the type name expression stands wherever the service has $2.
\set t random(0, :ntypes - 1)
\set d :t % 20 + 1
WITH RECURSIVE counter AS (
    INSERT INTO schema_version_counters AS c (application_id, attributes_type, last_version)
    VALUES (:app::bigint, (ARRAY['FoodDelivery', 'Flight', 'SportsScore', 'RideHailing', 'Workout',
            'ParcelTracking', 'EVCharging', 'LiveAuction', 'TrainJourney', 'CookingTimer', 'Parking',
            'EventEntry', 'BankTransfer', 'QueueTicket', 'FootballMatch', 'RaceWeekend', 'ElectionNight',
            'WeatherAlert', 'PharmacyOrder', 'EsportsMatch'])[:d::integer] || lpad(:t::text, 4, '0') || 'Attributes', 1)
    ON CONFLICT (application_id, attributes_type)
    DO UPDATE SET last_version = c.last_version + 1
    WHERE c.last_version < 2147483647
    RETURNING last_version
), inserted AS (
    INSERT INTO schema_versions (application_id, attributes_type, version, json_schema)
    SELECT :app::bigint, (ARRAY['FoodDelivery', 'Flight', 'SportsScore', 'RideHailing', 'Workout',
            'ParcelTracking', 'EVCharging', 'LiveAuction', 'TrainJourney', 'CookingTimer', 'Parking',
            'EventEntry', 'BankTransfer', 'QueueTicket', 'FootballMatch', 'RaceWeekend', 'ElectionNight',
            'WeatherAlert', 'PharmacyOrder', 'EsportsMatch'])[:d::integer] || lpad(:t::text, 4, '0') || 'Attributes',
        last_version, :schema::text FROM counter
    RETURNING version, created, schema_sha256
), distinct_hashes (schema_sha256) AS (
    (SELECT schema_sha256 FROM schema_versions
     WHERE application_id = :app::bigint AND attributes_type = (ARRAY['FoodDelivery', 'Flight', 'SportsScore', 'RideHailing', 'Workout',
             'ParcelTracking', 'EVCharging', 'LiveAuction', 'TrainJourney', 'CookingTimer', 'Parking',
             'EventEntry', 'BankTransfer', 'QueueTicket', 'FootballMatch', 'RaceWeekend', 'ElectionNight',
             'WeatherAlert', 'PharmacyOrder', 'EsportsMatch'])[:d::integer] || lpad(:t::text, 4, '0') || 'Attributes'
       AND deleted_at IS NULL
     ORDER BY schema_sha256 LIMIT 1)
    UNION ALL
    SELECT (SELECT next.schema_sha256 FROM schema_versions AS next
            WHERE next.application_id = :app::bigint AND next.attributes_type = (ARRAY['FoodDelivery', 'Flight', 'SportsScore', 'RideHailing', 'Workout',
                    'ParcelTracking', 'EVCharging', 'LiveAuction', 'TrainJourney', 'CookingTimer', 'Parking',
                    'EventEntry', 'BankTransfer', 'QueueTicket', 'FootballMatch', 'RaceWeekend', 'ElectionNight',
                    'WeatherAlert', 'PharmacyOrder', 'EsportsMatch'])[:d::integer] || lpad(:t::text, 4, '0') || 'Attributes'
              AND next.deleted_at IS NULL AND next.schema_sha256 > previous.schema_sha256
            ORDER BY next.schema_sha256 LIMIT 1)
    FROM distinct_hashes AS previous
    WHERE previous.schema_sha256 IS NOT NULL
)
SELECT version, to_char(created AT TIME ZONE 'UTC', :utc_format::text), NULL::bytea, NULL::text FROM inserted
UNION ALL
SELECT oldest.version, NULL, hashes.schema_sha256, oldest.json_schema
FROM distinct_hashes AS hashes
    CROSS JOIN LATERAL (SELECT version, json_schema FROM schema_versions
WHERE application_id = :app::bigint AND attributes_type = (ARRAY['FoodDelivery', 'Flight', 'SportsScore', 'RideHailing', 'Workout',
        'ParcelTracking', 'EVCharging', 'LiveAuction', 'TrainJourney', 'CookingTimer', 'Parking',
        'EventEntry', 'BankTransfer', 'QueueTicket', 'FootballMatch', 'RaceWeekend', 'ElectionNight',
        'WeatherAlert', 'PharmacyOrder', 'EsportsMatch'])[:d::integer] || lpad(:t::text, 4, '0') || 'Attributes'
  AND deleted_at IS NULL
  AND schema_sha256 = hashes.schema_sha256 AND version < (SELECT version FROM inserted)
ORDER BY version LIMIT 1) AS oldest
WHERE hashes.schema_sha256 <> (SELECT schema_sha256 FROM inserted);
