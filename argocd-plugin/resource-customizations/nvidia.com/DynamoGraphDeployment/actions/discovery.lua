-- Which restart actions Argo CD offers for a DynamoGraphDeployment.
-- restart (Sequential) is disabled for graphs with LPX components, which admission only lets
-- restart in Parallel; both are disabled while a managed rolling update is Pending or
-- InProgress, because the operator's webhook rejects a new restart id until it completes.
local actions = {}
local spec = obj.spec or {}
local status = obj.status or {}
local has_lpx = false
for _, c in ipairs(spec.components or {}) do
  if type(c) == "table" and c.type == "lpx" then has_lpx = true end
end
local phase = (status.rollingUpdate or {}).phase
local rolling = phase == "Pending" or phase == "InProgress"
actions["restart"] = {
  ["disabled"] = has_lpx or rolling,
  ["iconClass"] = "fa fa-fw fa-redo",
  ["displayName"] = "Restart (one component at a time)",
}
actions["restart-parallel"] = {
  ["disabled"] = rolling,
  ["iconClass"] = "fa fa-fw fa-forward",
  ["displayName"] = "Restart (all components at once)",
}
return actions
