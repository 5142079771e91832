-- wrk: REST Create of an original value from the known set (the get path).
package.path = package.path .. ";loadtest/wrk/?.lua"
local common = require("common")
local headers = { ["Content-Type"] = "application/json" }

init = common.seed

request = function()
  return wrk.format("POST", "/v1/namespaces/bench/pseudonyms", headers,
    '{"originalValue": "' .. common.known_value() .. '"}')
end

done = common.report
