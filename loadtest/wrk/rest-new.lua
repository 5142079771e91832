-- wrk: REST Create of a new random 32-character original value per request.
package.path = package.path .. ";loadtest/wrk/?.lua"
local common = require("common")
local headers = { ["Content-Type"] = "application/json" }

init = common.seed

request = function()
  return wrk.format("POST", "/v1/namespaces/bench/pseudonyms", headers,
    '{"originalValue": "' .. common.random_string(32) .. '"}')
end

done = common.report
