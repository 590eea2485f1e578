package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenKind is a kind of Go token as chroma's Go lexer names it
// (github.com/alecthomas/chroma/v2 v2.14.0, lexers/go.go); codeStyles
// gives each its colour.
type tokenKind uint8

const (
	tokText tokenKind = iota
	tokError
	tokComment
	tokCommentMultiline
	tokKeyword
	tokKeywordConstant
	tokKeywordDeclaration
	tokKeywordNamespace
	tokKeywordType
	tokNameBuiltin
	tokNameFunction
	tokNameOther
	tokNumber
	tokNumberBin
	tokNumberFloat
	tokNumberHex
	tokNumberInteger
	tokNumberOct
	tokString
	tokStringChar
	tokOperator
	tokPunctuation
	numTokenKinds
)

type token struct {
	kind  tokenKind
	value string
}

// lexGo cuts Go source into tokens exactly as chroma's Go lexer, wrapped
// in chroma.Coalesce, does: its rules in their order, tried at each
// position, a rune no rule takes an error token, neighbours of one kind
// merged. chroma itself is not linked: its packages register every lexer
// and style it has when the program starts, ~20 ms before the first
// frame, for the one lexer and two styles drawn here.
// TestGoLexerMatchesChroma holds this to chroma on every Go file of the
// repository and every snippet of the course.
func lexGo(src string) []token {
	text := []rune(src)
	end := len(text)
	if !strings.HasSuffix(src, "\n") {
		// chroma's EnsureNL: the rules see a final newline, the tokens
		// stop before it.
		text = append(text, '\n')
	}
	var out []token
	emit := func(k tokenKind, v []rune) {
		if len(v) == 0 {
			return
		}
		s := string(v)
		if n := len(out); n > 0 && out[n-1].kind == k && len(out[n-1].value) < 8192 {
			out[n-1].value += s
			return
		}
		out = append(out, token{k, s})
	}
	for pos := 0; pos < end; {
		k, n, groups := goRule(text, pos)
		switch {
		case n == 0:
			emit(tokError, text[pos:pos+1])
			pos++
			continue
		case groups != nil:
			at := pos
			for _, g := range groups {
				emit(g.kind, text[at:at+g.n])
				at += g.n
			}
		default:
			emit(k, text[pos:pos+n])
		}
		pos += n
	}
	return out
}

type group struct {
	kind tokenKind
	n    int
}

var (
	goKeywords = wordSet("break", "default", "select", "case", "defer", "go", "else", "goto", "switch",
		"fallthrough", "if", "range", "continue", "for", "return")
	goDeclarations = wordSet("var", "func", "struct", "map", "chan", "type", "interface", "const")
	goConstants    = wordSet("true", "false", "iota", "nil")
	goTypes        = wordSet("uint", "uint8", "uint16", "uint32", "uint64", "int", "int8", "int16", "int32", "int64",
		"float", "float32", "float64", "complex64", "complex128", "byte", "rune", "string", "bool", "error", "uintptr")
	goBuiltins = wordSet("uint", "uint8", "uint16", "uint32", "uint64", "int", "int8", "int16", "int32", "int64",
		"float", "float32", "float64", "complex64", "complex128", "byte", "rune", "string", "bool", "error", "uintptr",
		"print", "println", "panic", "recover", "close", "complex", "real", "imag", "len", "cap", "append", "copy",
		"delete", "new", "make", "clear", "min", "max")
	// goOperators in the order of chroma's alternation: the first that
	// matches wins.
	goOperators = []string{"<<=", ">>=", "<<", ">>", "<=", ">=", "&^=", "&^", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
		"&&", "||", "<-", "++", "--", "==", "!=", ":=", "...", "+", "-", "*", "/", "%", "&"}
)

func wordSet(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// isWord is regexp2's \w: letters, non-spacing marks, decimal digits and
// connector punctuation.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Pc, r)
}

// isSpace is regexp2's \s.
func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x85:
		return true
	}
	return r >= utf8.RuneSelf && unicode.Is(unicode.Z, r)
}

func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.Is(unicode.Nd, r)
}

func at(t []rune, i int) rune {
	if i < len(t) {
		return t[i]
	}
	return -1
}

// digits counts the runes from i that satisfy ok.
func count(t []rune, i int, ok func(rune) bool) int {
	n := 0
	for i+n < len(t) && ok(t[i+n]) {
		n++
	}
	return n
}

// goRule is the first of chroma's Go rules that matches at pos: the
// token kind and length, or the groups of a rule that emits several; a
// length of 0 when none matches.
func goRule(t []rune, pos int) (tokenKind, int, []group) {
	c := t[pos]
	switch {
	case c == '\n':
		return tokText, 1, nil
	case isSpace(c):
		return tokText, count(t, pos, isSpace), nil
	case c == '\\' && at(t, pos+1) == '\n':
		return tokText, 2, nil
	}
	if c == '/' && at(t, pos+1) == '/' {
		for i := pos + 2; i < len(t); i++ {
			if t[i] == '\n' {
				return tokComment, i + 1 - pos, nil
			}
		}
	}
	if n := multilineComment(t, pos); n > 0 {
		return tokCommentMultiline, n, nil
	}
	word := count(t, pos, isWord)
	if word > 0 {
		w := string(t[pos : pos+word])
		switch {
		case w == "import" || w == "package":
			return tokKeywordNamespace, word, nil
		case goDeclarations[w]:
			return tokKeywordDeclaration, word, nil
		case goKeywords[w]:
			return tokKeyword, word, nil
		case goConstants[w]:
			return tokKeywordConstant, word, nil
		case goBuiltins[w] && at(t, pos+word) == '(':
			return 0, word + 1, []group{{tokNameBuiltin, word}, {tokPunctuation, 1}}
		case goTypes[w]:
			return tokKeywordType, word, nil
		}
	}
	if k, n := number(t, pos); n > 0 {
		return k, n, nil
	}
	if n := charLiteral(t, pos); n > 0 {
		return tokStringChar, n, nil
	}
	if c == '`' {
		for i := pos + 1; i < len(t); i++ {
			if t[i] == '`' {
				return tokString, i + 1 - pos, nil
			}
		}
	}
	if c == '"' {
		if n := stringLiteral(t, pos); n > 0 {
			return tokString, n, nil
		}
	}
	for _, op := range goOperators {
		if hasPrefix(t, pos, op) {
			return tokOperator, len(op), nil
		}
	}
	if c < utf8.RuneSelf && (c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		name := 1 + count(t, pos+1, isWord)
		sp := count(t, pos+name, isSpace)
		if at(t, pos+name+sp) == '(' {
			return 0, name + sp + 1, []group{{tokNameFunction, name}, {tokText, sp}, {tokPunctuation, 1}}
		}
	}
	if strings.ContainsRune("|^<>=!()[]{}.,;:~", c) {
		return tokPunctuation, 1, nil
	}
	if isWord(c) && !isDigit(c) {
		return tokNameOther, word, nil
	}
	return 0, 0, nil
}

func hasPrefix(t []rune, pos int, s string) bool {
	for i, r := range []rune(s) {
		if at(t, pos+i) != r {
			return false
		}
	}
	return true
}

// multilineComment matches /(\\\n)?[*](.|\n)*?[*](\\\n)?/ at pos.
func multilineComment(t []rune, pos int) int {
	if t[pos] != '/' {
		return 0
	}
	i := pos + 1
	if at(t, i) == '\\' && at(t, i+1) == '\n' && at(t, i+2) == '*' {
		i += 2
	}
	if at(t, i) != '*' {
		return 0
	}
	for j := i + 1; j < len(t); j++ {
		if t[j] != '*' {
			continue
		}
		if at(t, j+1) == '/' {
			return j + 2 - pos
		}
		if at(t, j+1) == '\\' && at(t, j+2) == '\n' && at(t, j+3) == '/' {
			return j + 4 - pos
		}
	}
	return 0
}

// number tries chroma's number rules in their order.
func number(t []rune, pos int) (tokenKind, int) {
	d := count(t, pos, isDigit)
	exp := func(i int, signRequired bool) int { // [eE][-+]?\d+ from i, or 0
		if r := at(t, i); r != 'e' && r != 'E' {
			return 0
		}
		j := i + 1
		if r := at(t, j); r == '+' || r == '-' {
			j++
		} else if signRequired {
			return 0
		}
		n := count(t, j, isDigit)
		if n == 0 {
			return 0
		}
		return j + n - i
	}
	if d > 0 {
		// \d+i
		if at(t, pos+d) == 'i' {
			return tokNumber, d + 1
		}
		// \d+\.\d*([Ee][-+]\d+)?i
		if at(t, pos+d) == '.' {
			f := count(t, pos+d+1, isDigit)
			i := pos + d + 1 + f
			if e := exp(i, true); e > 0 && at(t, i+e) == 'i' {
				return tokNumber, i + e + 1 - pos
			}
			if at(t, i) == 'i' {
				return tokNumber, i + 1 - pos
			}
		}
	}
	// \.\d+([Ee][-+]\d+)?i
	if t[pos] == '.' {
		if f := count(t, pos+1, isDigit); f > 0 {
			i := pos + 1 + f
			if e := exp(i, true); e > 0 && at(t, i+e) == 'i' {
				return tokNumber, i + e + 1 - pos
			}
			if at(t, i) == 'i' {
				return tokNumber, i + 1 - pos
			}
		}
	}
	if d > 0 {
		// \d+[Ee][-+]\d+i
		if e := exp(pos+d, true); e > 0 && at(t, pos+d+e) == 'i' {
			return tokNumber, d + e + 1
		}
		// \d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)
		if at(t, pos+d) == '.' {
			f := count(t, pos+d+1, isDigit)
			if f > 0 {
				if e := exp(pos+d+1+f, false); e > 0 {
					return tokNumberFloat, d + 1 + f + e
				}
			}
			return tokNumberFloat, d + 1 + f
		}
		if e := exp(pos+d, false); e > 0 {
			return tokNumberFloat, d + e
		}
	}
	// \.\d+([eE][+\-]?\d+)?
	if t[pos] == '.' {
		if f := count(t, pos+1, isDigit); f > 0 {
			return tokNumberFloat, 1 + f + exp(pos+1+f, false)
		}
	}
	if t[pos] != '0' && (t[pos] < '1' || t[pos] > '9') {
		return 0, 0
	}
	if t[pos] == '0' {
		// 0[0-7]+
		if n := count(t, pos+1, func(r rune) bool { return '0' <= r && r <= '7' }); n > 0 {
			return tokNumberOct, 1 + n
		}
		// 0[xX][0-9a-fA-F_]+
		if r := at(t, pos+1); r == 'x' || r == 'X' {
			if n := count(t, pos+2, func(r rune) bool {
				return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F'
			}); n > 0 {
				return tokNumberHex, 2 + n
			}
		}
		// 0b[01_]+
		if at(t, pos+1) == 'b' {
			if n := count(t, pos+2, func(r rune) bool { return r == '0' || r == '1' || r == '_' }); n > 0 {
				return tokNumberBin, 2 + n
			}
		}
		return tokNumberInteger, 1
	}
	// [1-9][0-9_]*
	return tokNumberInteger, 1 + count(t, pos+1, func(r rune) bool { return r == '_' || '0' <= r && r <= '9' })
}

// charLiteral matches chroma's rune literal rule at pos.
func charLiteral(t []rune, pos int) int {
	if t[pos] != '\'' {
		return 0
	}
	i := pos + 1
	hex := func(r rune) bool { return '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F' }
	closeAt := func(j int) int {
		if at(t, j) == '\'' {
			return j + 1 - pos
		}
		return 0
	}
	if at(t, i) == '\\' {
		r := at(t, i+1)
		if strings.ContainsRune(`'"\abfnrtv`, r) && r >= 0 {
			if n := closeAt(i + 2); n > 0 {
				return n
			}
		}
		if r == 'x' && count(t, i+2, hex) >= 2 {
			if n := closeAt(i + 4); n > 0 {
				return n
			}
		}
		if oct := count(t, i+1, func(r rune) bool { return '0' <= r && r <= '7' }); oct > 0 {
			for k := min(oct, 3); k >= 1; k-- {
				if n := closeAt(i + 1 + k); n > 0 {
					return n
				}
			}
		}
		if r == 'u' && count(t, i+2, hex) >= 4 {
			if n := closeAt(i + 6); n > 0 {
				return n
			}
		}
		if r == 'U' && count(t, i+2, hex) >= 8 {
			if n := closeAt(i + 10); n > 0 {
				return n
			}
		}
		return 0
	}
	if i < len(t) {
		return closeAt(i + 1)
	}
	return 0
}

// stringLiteral matches "(\\\\|\\"|[^"])*" at pos, taking the escapes
// first as the regular expression does.
func stringLiteral(t []rune, pos int) int {
	for i := pos + 1; i < len(t); {
		switch {
		case t[i] == '\\' && (at(t, i+1) == '\\' || at(t, i+1) == '"'):
			i += 2
		case t[i] == '"':
			return i + 1 - pos
		default:
			i++
		}
	}
	return 0
}
