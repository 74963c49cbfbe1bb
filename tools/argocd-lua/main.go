// argocd-lua runs resource-customization scripts the way Argo CD 3.5's util/lua does, for the
// tests: the same Lua implementation (gopher-lua), the same JSON bridge (layeh gopher-json) and
// the same VM configuration, written here because Argo CD's own package cannot be built from
// the module proxy (its gitops-engine dependency is not served; see argocd-plugin/README.md).
//
// What is reproduced, read from Argo CD's util/lua/lua.go and oslib_safe.go:
//   - without open libraries (a customization from argocd-cm) the state opens only the package,
//     base and table libraries; the "safe os" is registered under the table library's name,
//     which gopher-lua's RegisterModule leaves untouched once table is loaded, so neither a
//     global os nor table.time/table.date exists; require("os") yields {time, date};
//   - the object is the global obj, action parameters the global actionParams; one second of
//     execution at most; a run-time error's message loses its stack trace;
//   - health: a table decoded into {status, message}, an unknown status becomes Unknown;
//     discovery: one action per key, an empty table means none; action: an object (patch) or a
//     list of impacted resources, with empty objects the script turned into [] restored.
//
// Input on stdin: a JSON list of {"mode": "health"|"discovery"|"action", "script": "...",
// "obj": {...}, "params": {...}, "openLibs": false}; output: a JSON list of {"result": ...} or
// {"error": "..."}, one per request, in order.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	lua "github.com/yuin/gopher-lua"
	luajson "layeh.com/gopher-json"
)

type request struct {
	Mode     string            `json:"mode"`
	Script   string            `json:"script"`
	Obj      map[string]any    `json:"obj"`
	Params   map[string]string `json:"params"`
	OpenLibs bool              `json:"openLibs"`
}

type response struct {
	Result any    `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// gopher-lua's own os.time and os.date, the functions Argo CD's safe os library copies.
var safeOs = func() map[string]lua.LGFunction {
	l := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer l.Close()
	lua.OpenOs(l)
	mod := l.GetGlobal(lua.OsLibName).(*lua.LTable)
	funcs := map[string]lua.LGFunction{}
	for _, name := range []string{"time", "date"} {
		funcs[name] = mod.RawGetString(name).(*lua.LFunction).GFunction
	}
	return funcs
}()

func run(req request) (lua.LValue, error) {
	l := lua.NewState(lua.Options{SkipOpenLibs: !req.OpenLibs})
	defer l.Close()
	open := []struct {
		name string
		fn   lua.LGFunction
	}{
		{lua.LoadLibName, lua.OpenPackage},
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.OsLibName, func(l *lua.LState) int {
			l.Push(l.RegisterModule(lua.TabLibName, safeOs))
			return 1
		}},
	}
	for _, lib := range open {
		if err := l.CallByParam(lua.P{Fn: l.NewFunction(lib.fn), Protect: true}, lua.LString(lib.name)); err != nil {
			return nil, err
		}
	}
	l.PreloadModule(lua.OsLibName, func(l *lua.LState) int {
		l.Push(l.SetFuncs(l.NewTable(), safeOs))
		return 1
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	l.SetContext(ctx)
	params := l.CreateTable(0, len(req.Params))
	for name, value := range req.Params {
		params.RawSetString(name, lua.LString(value))
	}
	l.SetGlobal("actionParams", params)
	l.SetGlobal("obj", luajson.DecodeValue(l, map[string]any(req.Obj)))
	if err := l.DoString(req.Script); err != nil {
		var apiErr *lua.ApiError
		if errors.As(err, &apiErr) && apiErr.Type == lua.ApiErrorRun {
			return nil, errors.New(apiErr.Object.String())
		}
		return nil, err
	}
	return l.Get(-1), nil
}

func health(value lua.LValue) (any, error) {
	if value.Type() == lua.LTNil {
		return map[string]string{"status": "", "message": ""}, nil
	}
	if value.Type() != lua.LTTable {
		return nil, fmt.Errorf("expect table output from Lua script, not %s", value.Type())
	}
	data, err := luajson.Encode(value)
	if err != nil {
		return nil, err
	}
	var status struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	}
	if string(data) != "[]" {
		if err := json.Unmarshal(data, &status); err != nil {
			return nil, err
		}
	}
	switch status.Status {
	case "Unknown", "Progressing", "Suspended", "Healthy", "Degraded", "Missing":
	default:
		status.Status, status.Message = "Unknown", "Lua returned an invalid health status"
	}
	return map[string]string{"status": status.Status, "message": status.Message}, nil
}

type action struct {
	Name        string `json:"name"`
	Disabled    bool   `json:"disabled"`
	IconClass   string `json:"iconClass"`
	DisplayName string `json:"displayName"`
	Params      any    `json:"params,omitempty"`
}

func discovery(value lua.LValue) (any, error) {
	if value.Type() != lua.LTTable {
		return nil, fmt.Errorf("expect table output from Lua script, not %s", value.Type())
	}
	data, err := luajson.Encode(value)
	if err != nil {
		return nil, err
	}
	actions := []action{}
	if string(data) == "[]" {
		return actions, nil
	}
	var table map[string]json.RawMessage
	if err := json.Unmarshal(data, &table); err != nil {
		return nil, err
	}
	for name, raw := range table {
		a := action{}
		if len(raw) > 0 && raw[0] == '{' {
			if err := json.Unmarshal(raw, &a); err != nil {
				return nil, err
			}
		}
		a.Name = name
		actions = append(actions, a)
	}
	sort.Slice(actions, func(i, j int) bool { return actions[i].Name < actions[j].Name })
	return actions, nil
}

// restoreEmptyObjects undoes the bridge's one lossy step: an empty Lua table is encoded as [],
// so where the input had an object and the output has an empty list, the object comes back.
func restoreEmptyObjects(out, in any) any {
	switch o := out.(type) {
	case map[string]any:
		if i, ok := in.(map[string]any); ok {
			for key, value := range o {
				if old, ok := i[key]; ok {
					o[key] = restoreEmptyObjects(value, old)
				}
			}
		}
	case []any:
		switch i := in.(type) {
		case map[string]any:
			if len(o) == 0 {
				return map[string]any{}
			}
		case []any:
			for n := range o {
				if n < len(i) {
					o[n] = restoreEmptyObjects(o[n], i[n])
				}
			}
		}
	}
	return out
}

func resourceAction(value lua.LValue, obj map[string]any) (any, error) {
	if value.Type() != lua.LTTable {
		return nil, fmt.Errorf("expect table output from Lua script, not %s", value.Type())
	}
	data, err := luajson.Encode(value)
	if err != nil {
		return nil, err
	}
	var decoded any
	if err := json.Unmarshal(data, &decoded); err != nil {
		return nil, err
	}
	if list, ok := decoded.([]any); ok {
		return list, nil // impacted resources, returned as the script wrote them
	}
	return restoreEmptyObjects(decoded, obj), nil
}

func answer(req request) response {
	value, err := run(req)
	var result any
	if err == nil {
		switch req.Mode {
		case "health":
			result, err = health(value)
		case "discovery":
			result, err = discovery(value)
		case "action":
			result, err = resourceAction(value, req.Obj)
		default:
			err = fmt.Errorf("unknown mode %q", req.Mode)
		}
	}
	if err != nil {
		return response{Error: err.Error()}
	}
	return response{Result: result}
}

func main() {
	var requests []request
	if err := json.NewDecoder(os.Stdin).Decode(&requests); err != nil {
		fmt.Fprintln(os.Stderr, "argocd-lua: reading requests:", err)
		os.Exit(2)
	}
	responses := make([]response, len(requests))
	for i, req := range requests {
		responses[i] = answer(req)
	}
	if err := json.NewEncoder(os.Stdout).Encode(responses); err != nil {
		fmt.Fprintln(os.Stderr, "argocd-lua: writing answers:", err)
		os.Exit(2)
	}
}
