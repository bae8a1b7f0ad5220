-- The service's publish-next-free statement (PostgresSchemaStore.publishNextFree), on a random
-- type among the first :ntypes (1 = one hot type). bench/run.sh passes -D app=<application id>
-- -D ntypes=<types> -D schema=<the schema text the wrk publish scripts send> -D utc_format='YYYY-MM-DD"T"HH24:MI:SS"Z"'
-- (a variable because pgbench would take :MI and :SS inside the literal for variables).
\set t random(0, :ntypes - 1)
\set d :t % 20 + 1
WITH counter AS (
    INSERT INTO schema_version_counters AS c (application_id, attributes_type, last_version)
    VALUES (:app::bigint, (ARRAY['FoodDelivery', 'Flight', 'SportsScore', 'RideHailing', 'Workout',
        'ParcelTracking', 'EVCharging', 'LiveAuction', 'TrainJourney', 'CookingTimer', 'Parking',
        'EventEntry', 'BankTransfer', 'QueueTicket', 'FootballMatch', 'RaceWeekend', 'ElectionNight',
        'WeatherAlert', 'PharmacyOrder', 'EsportsMatch'])[:d::integer] || lpad(:t::text, 4, '0') || 'Attributes', 1)
    ON CONFLICT (application_id, attributes_type)
    DO UPDATE SET last_version = c.last_version + 1
    WHERE c.last_version < 2147483647
    RETURNING last_version
)
INSERT INTO schema_versions (application_id, attributes_type, version, json_schema)
SELECT :app::bigint, (ARRAY['FoodDelivery', 'Flight', 'SportsScore', 'RideHailing', 'Workout',
        'ParcelTracking', 'EVCharging', 'LiveAuction', 'TrainJourney', 'CookingTimer', 'Parking',
        'EventEntry', 'BankTransfer', 'QueueTicket', 'FootballMatch', 'RaceWeekend', 'ElectionNight',
        'WeatherAlert', 'PharmacyOrder', 'EsportsMatch'])[:d::integer] || lpad(:t::text, 4, '0') || 'Attributes',
    last_version, :schema::text
FROM counter
RETURNING version, to_char(created AT TIME ZONE 'UTC', :utc_format::text);
