-- The service's get-version statement (PostgresSchemaStore.getVersion), for a random version of
-- a random seeded type. bench/run.sh passes -D app=<application id> -D ntypes=<types>.
-- The timestamp format comes in as -D utc_format='YYYY-MM-DD"T"HH24:MI:SS"Z"' because pgbench would
-- take :MI and :SS inside the literal for variables; the service has it as a literal.
-- Type names are <Domain><index:04d>Attributes with Domain = index % 20 (bench/gen_schemas.py).
\set t random(0, :ntypes - 1)
\set v random(1, 5)
\set d :t % 20 + 1
SELECT json_schema, to_char(created AT TIME ZONE 'UTC', :utc_format::text), schema_sha256
FROM schema_versions
WHERE application_id = :app::bigint
  AND attributes_type = (ARRAY['FoodDelivery', 'Flight', 'SportsScore', 'RideHailing', 'Workout',
        'ParcelTracking', 'EVCharging', 'LiveAuction', 'TrainJourney', 'CookingTimer', 'Parking',
        'EventEntry', 'BankTransfer', 'QueueTicket', 'FootballMatch', 'RaceWeekend', 'ElectionNight',
        'WeatherAlert', 'PharmacyOrder', 'EsportsMatch'])[:d::integer] || lpad(:t::text, 4, '0') || 'Attributes'
  AND version = :v::integer
  AND deleted_at IS NULL;
