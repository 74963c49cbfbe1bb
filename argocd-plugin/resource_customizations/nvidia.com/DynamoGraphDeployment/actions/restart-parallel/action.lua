-- Refused, like discovery disables it, when spec.restart comes from Git.
-- Request a parallel restart: a new spec.restart.id (the current UTC time) with strategy
-- Parallel; an order is dropped because admission forbids it with Parallel. Refused while a
-- managed rolling update runs (admission rejects the new id).
local os = require("os")
local spec = obj.spec or {}
local annotations = (obj.metadata or {}).annotations or {}
if annotations["kubectl-dgd.nvidia.com/restart-from"] == "git" then
  error("the restart id of this graph comes from Git; change the restart-id parameter instead (a restart made here is undone by the next sync)", 0)
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
restart.id = id
restart.strategy = { type = "Parallel" }
spec.restart = restart
obj.spec = spec
return obj
