package snippets

// ForWrite names the snippet that shows a write method (as a strategy and
// an outcome name it: "update", "update-clear-rv"), for the steps and
// options that name no code of their own; "" when none shows it.
func ForWrite(method string) string { return forWrite[method] }

var forWrite = map[string]string{
	"update":          "update-with-rv",
	"update-clear-rv": "update-clear-rv",
}
