-- POST BENCH_CHECK_PATH (…/{type}/{version}:check) with the values in BENCH_CHECK_BODY (a
-- `:check` body without `application`, written by gen_schemas.py), the same body every time,
-- for the application BENCH_CHECK_APP (default BENCH_APP).
local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "common.lua")
common.install(_G)

local path, body

function init(args)
  path = common.env("BENCH_CHECK_PATH")
  local values = common.read(common.env("BENCH_CHECK_BODY"))
  body = '{"application":"' .. common.env("BENCH_CHECK_APP", common.env("BENCH_APP")) .. '",' .. values:sub(2)
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  return wrk.format("POST", path, nil, body)
end
