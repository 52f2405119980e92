package main

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// removable are the keys under which a name the old contract had must still
// be there: a route, a method, a response code, a property, a channel, a
// message, an operation, a header.
var removable = map[string]bool{"paths": true, "responses": true, "properties": true,
	"channels": true, "messages": true, "operations": true, "headers": true}

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// breaking lists what in next can break a client of old: a name removed
// (removable), a type changed, an enum value removed, a required property
// of an answer no longer required (a consumer relies on it being there), a
// property of a request body newly required.
func breaking(old, next any) []string {
	var out []string
	var walk func(o, n any, path []string)
	walk = func(o, n any, path []string) {
		at := "/" + strings.Join(path, "/")
		om, ok1 := o.(map[string]any)
		nm, ok2 := n.(map[string]any)
		if !ok1 || !ok2 {
			return
		}
		parent := ""
		if len(path) > 0 {
			parent = path[len(path)-1]
		}
		inRequest := slices.Contains(path, "requestBody")
		for _, k := range sortedKeys(om) {
			ov := om[k]
			nv, ok := nm[k]
			switch {
			case !ok && (removable[parent] || (len(path) > 1 && path[len(path)-2] == "paths" && slices.Contains(methods, k))):
				out = append(out, fmt.Sprintf("%s/%s: removed", at, k))
				continue
			case !ok:
				continue
			}
			switch k {
			case "type":
				if fmt.Sprint(ov) != fmt.Sprint(nv) && !removable[parent] {
					out = append(out, fmt.Sprintf("%s/type: %v became %v", at, ov, nv))
				}
			case "enum":
				for _, v := range asList(ov) {
					if !slices.Contains(asList(nv), v) && !removable[parent] {
						out = append(out, fmt.Sprintf("%s/enum: %v removed", at, v))
					}
				}
			case "required":
				if removable[parent] {
					break // a property named "required"
				}
				if b, isBool := ov.(bool); isBool { // a parameter's required
					if nb, _ := nv.(bool); !b && nb {
						out = append(out, at+"/required: became true")
					}
					break
				}
				for _, v := range asList(ov) {
					if !slices.Contains(asList(nv), v) && !inRequest {
						out = append(out, fmt.Sprintf("%s/required: %v no longer required", at, v))
					}
				}
				for _, v := range asList(nv) {
					if !slices.Contains(asList(ov), v) && inRequest {
						out = append(out, fmt.Sprintf("%s/required: %v newly required in a request", at, v))
					}
				}
			}
			walk(ov, nv, append(slices.Clip(path), k))
		}
	}
	walk(old, next, nil)
	return out
}

func asList(v any) []string {
	var out []string
	if l, ok := v.([]any); ok {
		for _, x := range l {
			out = append(out, fmt.Sprint(x))
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// major is the major number of a contract's info.version (0 when absent).
func major(doc any) int {
	m, _ := doc.(map[string]any)
	info, _ := m["info"].(map[string]any)
	v, _ := info["version"].(string)
	n, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(v, "v"), ".", 2)[0])
	return n
}
