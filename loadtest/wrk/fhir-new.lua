-- wrk: FHIR $create-pseudonym with a new random original value per request.
package.path = package.path .. ";loadtest/wrk/?.lua"
local common = require("common")
local headers = { ["Content-Type"] = "application/fhir+json" }

init = common.seed

request = function()
  return wrk.format("POST", "/v1/fhir/$create-pseudonym", headers,
    '{"resourceType": "Parameters", "parameter": ['
      .. '{"name": "namespace", "valueString": "bench"}, '
      .. '{"name": "originalValue", "valueString": "' .. common.random_string(32) .. '"}]}')
end

done = common.report
