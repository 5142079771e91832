-- Shared by the wrk scripts (run from the repository root): random values and the report line
-- that loadtest/report.py reads.
local common = {}

local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

function common.seed()
  -- each wrk thread has its own Lua state; mix the clock with the state's address
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16))
end

function common.random_string(length)
  local chars = {}
  for i = 1, length do
    local n = math.random(1, #alphabet)
    chars[i] = alphabet:sub(n, n)
  end
  return table.concat(chars)
end

function common.known_value()
  return string.format("known-%04d", math.random(0, 999))
end

function common.report(summary, latency)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  io.write(string.format(
    'VFPS_WRK {"requests": %d, "seconds": %.3f, "errors": %d, "p50": %d, "p95": %d, "p99": %d}\n',
    summary.requests, summary.duration / 1e6, errors,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end

return common
