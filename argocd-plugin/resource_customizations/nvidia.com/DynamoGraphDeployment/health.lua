-- Argo CD health check for nvidia.com/DynamoGraphDeployment.
-- Mirrors kubectl_dgd.core.health.health rule by rule (same order, same messages); the tests
-- run both over the same status fixtures. Written for Argo CD's Lua 5.1 sandbox, which opens
-- only the base, table and a reduced os library: no string or math functions are used.

local function map(v)
  if type(v) == "table" then return v end
  return {}
end

-- Python truthiness, so messages fall back exactly as the core's do.
local function truthy(v)
  if v == nil or v == false or v == "" or v == 0 then return false end
  if type(v) == "table" and next(v) == nil then return false end
  return true
end

local function str(v)
  if v == nil then return "None" end
  if v == true then return "True" end
  if v == false then return "False" end
  return tostring(v)
end

local function list(v)
  if type(v) == "table" then return v end
  return {}
end

local function ready_condition(status)
  for _, c in ipairs(list(status.conditions)) do
    if map(c).type == "Ready" then return map(c) end
  end
  return {}
end

local function reason_message(ready)
  local reason, message = ready.reason, ready.message
  if truthy(reason) and truthy(message) then return str(reason) .. ": " .. str(message) end
  if truthy(reason) then return str(reason) end
  if truthy(message) then return str(message) end
  return "Not ready"
end

local FAILURE_REASONS = {
  failed_to_reconcile_the_resources = true,
  rolling_update_failed = true,
  failed_to_initialize_worker_hash = true,
  failed_to_migrate_worker_hash = true,
  no_multinode_orchestrator_available = true,
  selected_workload_provider_unavailable = true,
  unsupported_workload_provider = true,
  failed_to_handle_the_finalizer = true,
}
-- Reasons that come back on every retry until something changes (Degraded); any other failure
-- is a step the operator retries with backoff (Progressing): Argo CD aborts a sync with waves
-- or hooks at the first Degraded resource.
local PERMANENT_REASONS = {
  failed_to_reconcile_the_resources = true,
  rolling_update_failed = true,
  no_multinode_orchestrator_available = true,
  selected_workload_provider_unavailable = true,
  unsupported_workload_provider = true,
}
local WORKER_TYPES = { worker = true, prefill = true, decode = true }

-- The failure's message and whether it is permanent (Degraded) or retried (Progressing).
local function failure(spec, status, ready)
  local permanent = ready.reason ~= nil and PERMANENT_REASONS[ready.reason] == true
  if status.state == "failed" then
    if truthy(ready.reason) then return reason_message(ready), permanent end
    return "Reconcile failed", false
  end
  if ready.status == "False" and ready.reason ~= nil and FAILURE_REASONS[ready.reason] then
    return reason_message(ready), permanent
  end
  if map(status.rollingUpdate).phase == "Failed" then return "Rolling update failed", true end
  local restart = map(status.restart)
  local spec_id = map(spec.restart).id
  if restart.phase == "Failed" and restart.observedID == spec_id then
    return "Restart " .. str(spec_id) .. " failed", true
  end
  return nil, false
end

local function progressing(metadata, spec, status)
  local generation, observed = metadata.generation, status.observedGeneration
  if type(generation) == "number" and type(observed) == "number" and observed < generation then
    return "Waiting for the operator to observe generation " .. str(generation) ..
      " (observed " .. str(observed) .. ")"
  end
  local rolling = map(status.rollingUpdate)
  if rolling.phase == "Pending" or rolling.phase == "InProgress" then
    local workers = 0
    for _, c in ipairs(list(spec.components)) do
      if WORKER_TYPES[map(c).type or ""] then workers = workers + 1 end
    end
    return "Rolling update " .. rolling.phase .. ": " .. #list(rolling.updatedComponents) ..
      " of " .. workers .. " worker components updated"
  end
  local restart = map(status.restart)
  local spec_id = map(spec.restart).id
  if truthy(spec_id) and spec_id ~= restart.observedID then
    return "Restart " .. str(spec_id) .. " requested"
  end
  if restart.phase == "Restarting" or restart.phase == "Pending" then
    local names = {}
    for _, n in ipairs(list(restart.inProgress)) do table.insert(names, str(n)) end
    return "Restart " .. str(restart.observedID) .. " in progress: " .. table.concat(names, ", ")
  end
  return nil
end

-- Ready replicas of one status.components entry, by kind: a PodCliqueScalingGroup reports
-- available replicas only; the other kinds their ready ones; an entry without a kind falls
-- back from ready to available. Unreported counts 0.
local function ready_replicas(entry)
  local value
  if entry.componentKind == "PodCliqueScalingGroup" then
    value = entry.availableReplicas
  elseif entry.componentKind == nil and entry.readyReplicas == nil then
    value = entry.availableReplicas
  else
    value = entry.readyReplicas
  end
  if type(value) == "number" then return value end
  return 0
end

-- "<n> of <m> components ready; waiting for <names>" when a component is short, else nil.
local function components_short(spec, status)
  local observed = map(status.components)
  local total, ready, waiting = 0, 0, {}
  for _, c in ipairs(list(spec.components)) do
    c = map(c)
    local desired = c.replicas
    if type(desired) ~= "number" then desired = 1 end
    local name = c.name
    if type(name) ~= "string" then name = "" end
    total = total + 1
    if ready_replicas(map(observed[name])) >= desired then
      ready = ready + 1
    else
      table.insert(waiting, name)
    end
  end
  if ready == total then return nil end
  return ready .. " of " .. total .. " components ready; waiting for " ..
    table.concat(waiting, ", ")
end

-- Argo CD answers for a missing object (Missing) and for one being deleted (Progressing,
-- "Pending deletion") before it runs this script, so the core's first two rules are not here.
local function health(o)
  local hs = {}
  local metadata, spec, status = map(o.metadata), map(o.spec), o.status
  if type(status) ~= "table" then
    hs.status, hs.message = "Progressing", "Waiting for the operator to report status"
    return hs
  end
  local ready = ready_condition(status)
  local why, permanent = failure(spec, status, ready)
  if why then
    if permanent then hs.status = "Degraded" else hs.status = "Progressing" end
    hs.message = why
    return hs
  end
  why = progressing(metadata, spec, status)
  if why then
    hs.status, hs.message = "Progressing", why
    return hs
  end
  local components = list(spec.components)
  if #components > 0 then
    local all_zero = true
    for _, c in ipairs(components) do
      if map(c).replicas ~= 0 then all_zero = false end
    end
    if all_zero then
      -- Healthy, not Suspended: a sync with waves or hooks waits for Healthy (as upstream's
      -- CronJob check does for a suspended CronJob, argo-cd#24428).
      hs.status, hs.message = "Healthy", "All components are scaled to zero"
      return hs
    end
  end
  local says_ready = ready.status == "True"
  if ready.status ~= "True" and ready.status ~= "False" and ready.status ~= "Unknown" then
    says_ready = status.state == "successful"
  end
  if says_ready then
    local short = components_short(spec, status)
    if short then
      hs.status, hs.message = "Progressing", short
      return hs
    end
  end
  if ready.status == "True" then
    hs.status = "Healthy"
    if truthy(ready.message) then hs.message = str(ready.message) else hs.message = "Ready" end
    return hs
  end
  if ready.status == "False" or ready.status == "Unknown" then
    hs.status, hs.message = "Progressing", reason_message(ready)
    return hs
  end
  if status.state == "successful" then
    hs.status, hs.message = "Healthy", "successful"
    return hs
  end
  local state = "unset"
  if truthy(status.state) then state = str(status.state) end
  hs.status, hs.message = "Progressing", "Waiting for the Ready condition (state " .. state .. ")"
  return hs
end

return health(obj)
