-- Which restart actions Argo CD offers for a DynamoGraphDeployment.
-- Both are disabled when the plugin's generate stamped that spec.restart comes from Git (the
-- restart-id parameter, or a restart written in the files): the next sync would put Git's id
-- back, and with selfHeal one click would restart twice. restart (Sequential) is disabled for
-- graphs with LPX components, which admission only lets restart in Parallel; both are disabled
-- while a managed rolling update is Pending or InProgress, because the operator's webhook
-- rejects a new restart id until it completes.
local actions = {}
local spec = obj.spec or {}
local status = obj.status or {}
local annotations = (obj.metadata or {}).annotations or {}
local from_git = annotations["kubectl-dgd.nvidia.com/restart-from"] == "git"
local has_lpx = false
for _, c in ipairs(spec.components or {}) do
  if type(c) == "table" and c.type == "lpx" then has_lpx = true end
end
local phase = (status.rollingUpdate or {}).phase
local rolling = phase == "Pending" or phase == "InProgress"
local sequential_name = "Restart (one component at a time)"
local parallel_name = "Restart (all components at once)"
if from_git then
  local why = " - disabled: the restart id comes from Git (change restart-id instead)"
  sequential_name = sequential_name .. why
  parallel_name = parallel_name .. why
end
actions["restart"] = {
  ["disabled"] = from_git or has_lpx or rolling,
  ["iconClass"] = "fa fa-fw fa-redo",
  ["displayName"] = sequential_name,
}
actions["restart-parallel"] = {
  ["disabled"] = from_git or rolling,
  ["iconClass"] = "fa fa-fw fa-forward",
  ["displayName"] = parallel_name,
}
return actions
