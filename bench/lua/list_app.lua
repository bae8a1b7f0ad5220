-- Walk the whole application page by page (pageSize=BENCH_PAGE_SIZE, default 100), the way a
-- client syncing the registry does: each response's next_page_token is the next request's
-- pageToken; after the last page a new walk starts. Each connection walks on its own.
local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "common.lua")
common.install(_G)

local first, pending = nil, {}
local marker = '"next_page_token":"'

function init(args)
  common.seed()
  first = "/api/live_activity_schemas?application=" .. common.env("BENCH_APP") .. "&pageSize=" .. common.env("BENCH_PAGE_SIZE", "100")
end

function request()
  local token = table.remove(pending)
  if token then return wrk.format("GET", first .. "&pageToken=" .. token) end
  return wrk.format("GET", first)
end

function response(status, headers, body)
  -- The token is the last member of the body: look only at its tail.
  local at = body:find(marker, math.max(1, #body - 512), true)
  if at then
    local token = body:match('^([^"]+)"', at + #marker)
    if token then pending[#pending + 1] = token end
  end
end
