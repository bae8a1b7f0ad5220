-- Search an application seeded by bench/run.sh (BENCH_SEARCH_TYPES types × 10 versions, each
-- version with fields f<type>_<n>): each request looks for one random type's field by a
-- substring of its name, which the trigram index on field paths answers.
local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "common.lua")
common.install(_G)

local base, types

function init(args)
  common.seed()
  base = "/api/search?application=" .. common.env("BENCH_SEARCH_APP") .. "&pageSize=20&q=field:"
  types = tonumber(common.env("BENCH_SEARCH_TYPES"))
end

function request()
  return wrk.format("GET", base .. "seat" .. math.random(1, types) .. "_")
end
