-- Shared by the wrk scripts in this folder: settings from the environment (bench/run.sh sets
-- them), the attributes types list, per-thread random seeds and JSON string escaping.
local M = {}

function M.env(name, default)
  local value = os.getenv(name)
  if value == nil or value == "" then
    if default == nil then error(name .. " is not set") end
    return default
  end
  return value
end

function M.lines(path)
  local out = {}
  for line in io.lines(path) do
    if line ~= "" then out[#out + 1] = line end
  end
  return out
end

function M.read(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("*a")
  file:close()
  return text
end

local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }

function M.json_string(text)
  return '"' .. text:gsub('[%c"\\]', function(c)
    return escapes[c] or string.format("\\u%04x", c:byte())
  end) .. '"'
end

-- Every script: the token header, and a distinct random sequence per wrk thread.
local thread_count = 0
function M.install(globals)
  wrk.headers["Authorization"] = "Api " .. M.env("BENCH_TOKEN")
  globals.setup = function(thread)
    thread_count = thread_count + 1
    thread:set("thread_number", thread_count)
  end
end

function M.seed()
  math.randomseed(os.time() * 1000 + (thread_number or 0) * 7919)
  for _ = 1, 10 do math.random() end
end

-- GET path of one version (or its form) of a random type.
function M.version_path(app, types, versions, suffix)
  local name = types[math.random(#types)]
  local version = versions[math.random(#versions)]
  return "/api/live_activity_schemas/" .. name .. "/" .. version .. suffix .. "?application=" .. app
end

return M
