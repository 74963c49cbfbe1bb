-- Refused, like discovery disables it, when spec.restart comes from Git.
-- Request a sequential restart: a new spec.restart.id (the current UTC time) with strategy
-- Sequential, keeping an order the graph already names. Refused for LPX graphs (admission
-- requires Parallel) and while a managed rolling update runs (admission rejects the new id).
local os = require("os")
local spec = obj.spec or {}
local annotations = (obj.metadata or {}).annotations or {}
if annotations["kubectl-dgd.nvidia.com/restart-from"] == "git" then
  error("the restart id of this graph comes from Git; change the restart-id parameter instead (a restart made here is undone by the next sync)", 0)
end
for _, c in ipairs(spec.components or {}) do
  if type(c) == "table" and c.type == "lpx" then
    error("spec.restart.strategy.type must be Parallel when the graph contains LPX components; use the restart-parallel action", 0)
  end
end
local phase = ((obj.status or {}).rollingUpdate or {}).phase
if phase == "Pending" or phase == "InProgress" then
  error("a rolling update is in progress; the operator rejects a new restart id until it completes", 0)
end
local restart = spec.restart or {}
local current = restart.id
local stamp = os.date("!%Y-%m-%dT%H:%M:%SZ")
local id = stamp
local n = 1
while id == current do
  n = n + 1
  id = stamp .. "-" .. n
end
local strategy = restart.strategy or {}
restart.id = id
restart.strategy = { type = "Sequential", order = strategy.order }
spec.restart = restart
obj.spec = spec
return obj
