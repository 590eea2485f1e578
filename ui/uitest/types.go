package uitest

import "reflect"

// WalkTypes calls visit on t and on every type it holds, however deep:
// its fields, its elements, and what its functions return (a function is
// a way to reach what it returns), each once, with the path to it
// ("[].f()"). A test that a model cannot reach something — a screen before
// its answer holding no way to the outcome — walks the model's type.
func WalkTypes(t reflect.Type, visit func(path string, t reflect.Type)) {
	seen := map[reflect.Type]bool{}
	var walk func(path string, t reflect.Type)
	walk = func(path string, t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		visit(path, t)
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			walk(path+"[]", t.Elem())
		case reflect.Func:
			for i := range t.NumOut() {
				walk(path+"()", t.Out(i))
			}
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				walk(path+"."+f.Name, f.Type)
			}
		}
	}
	walk("", t)
}
