package termsafe

import "reflect"

// Deep returns v with Escape applied to every string it holds (struct
// fields, slice and map elements, map keys, values behind pointers and
// interfaces, byte slices), for a structure that is about to be shown: a
// race's outcome carries scenario values, labels and server messages
// wherever the simulator put them. v itself is not changed; when nothing in
// it needs escaping (the usual case), v is returned as it is, so a pointer
// keeps its identity.
func Deep[T any](v T) T {
	rv := reflect.ValueOf(&v).Elem()
	if clean(rv, map[uintptr]bool{}) {
		return v
	}
	return escapeValue(rv, map[ptrKey]reflect.Value{}).Interface().(T)
}

// clean reports whether no string under v needs escaping. seen guards
// against pointer cycles.
func clean(v reflect.Value, seen map[uintptr]bool) bool {
	switch v.Kind() {
	case reflect.String:
		return Clean(v.String())
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return true
		}
		seen[v.Pointer()] = true
		return clean(v.Elem(), seen)
	case reflect.Interface:
		return v.IsNil() || clean(v.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && !clean(v.Field(i), seen) {
				return false
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return Clean(string(v.Bytes()))
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if !clean(v.Index(i), seen) {
				return false
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if !clean(it.Key(), seen) || !clean(it.Value(), seen) {
				return false
			}
		}
	}
	return true
}

// ptrKey is a pointer and its type (a struct and its first field share
// an address).
type ptrKey struct {
	t reflect.Type
	p uintptr
}

// escapeValue returns a copy of v with its strings escaped. Unexported
// fields are copied as they are (they are not shown). done maps the
// pointers already copied to their copies, so shared values stay shared
// and a cycle ends.
func escapeValue(v reflect.Value, done map[ptrKey]reflect.Value) reflect.Value {
	t := v.Type()
	switch v.Kind() {
	case reflect.String:
		out := reflect.New(t).Elem()
		out.SetString(Escape(v.String()))
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		k := ptrKey{t, v.Pointer()}
		if out, ok := done[k]; ok {
			return out
		}
		out := reflect.New(t.Elem())
		done[k] = out
		out.Elem().Set(escapeValue(v.Elem(), done))
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(t).Elem()
		out.Set(escapeValue(v.Elem(), done))
		return out
	case reflect.Struct:
		out := reflect.New(t).Elem()
		out.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() {
				out.Field(i).Set(escapeValue(v.Field(i), done))
			}
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return reflect.ValueOf([]byte(Escape(string(v.Bytes())))).Convert(t)
		}
		out := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(escapeValue(v.Index(i), done))
		}
		return out
	case reflect.Array:
		out := reflect.New(t).Elem()
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(escapeValue(v.Index(i), done))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(t, v.Len())
		it := v.MapRange()
		for it.Next() {
			out.SetMapIndex(escapeValue(it.Key(), done), escapeValue(it.Value(), done))
		}
		return out
	}
	return v
}
