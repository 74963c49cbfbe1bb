// The Lua runner the Argo CD tests use (main.go says why it is not Argo CD's own util/lua):
// gopher-lua and gopher-json at the versions Argo CD v3.5.1's go.mod requires.
module kubectl-dgd.invalid/tools/argocd-lua

go 1.26.0

require (
	github.com/yuin/gopher-lua v1.1.2
	layeh.com/gopher-json v0.0.0-20190114024228-97fed8db8427
)
