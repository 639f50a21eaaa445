package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// evaluates returns the source text of n when n is a construct through
// which Bash can run code, or change what runs, that is no simple command
// of its own: arithmetic (which evaluates array subscripts, and so the
// command substitutions a variable's value holds), a parameter expansion
// that evaluates or re-expands (a subscript, a substring offset, ${!x},
// ${x@P}, an assignment with := or =), an array subscript in an
// assignment, an arithmetic or -v test in [[ ]], a named file descriptor
// ({fd}>file assigns a variable), a for or select loop over a variable
// Bash gives meaning to (PATH, IFS, PS4, …), or a builtin that takes a
// string or a variable name to evaluate (eval, trap, source, printf -v
// 'a[…]', read 'a[…]', …). It returns "" for anything else.
func evaluates(src string, n syntax.Node) string {
	switch x := n.(type) {
	case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.CStyleLoop, *syntax.LetClause:
		return text(src, n)
	case *syntax.ParamExp:
		if paramEvaluates(x) {
			return text(src, x)
		}
	case *syntax.Assign:
		if x.Index != nil {
			return text(src, x)
		}
	case *syntax.ArrayElem:
		if x.Index != nil {
			return text(src, x)
		}
	case *syntax.BinaryTest:
		if x.Op >= syntax.TsEql && x.Op <= syntax.TsGtr {
			return text(src, x)
		}
	case *syntax.UnaryTest:
		if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
			return text(src, x)
		}
	}
	return evaluatesCmd(src, n)
}

// evaluatesCmd is evaluates for the command-level nodes: redirections,
// loops, coprocs, calls and declarations.
func evaluatesCmd(src string, n syntax.Node) string {
	switch x := n.(type) {
	case *syntax.Redirect:
		if x.N != nil && strings.HasPrefix(x.N.Value, "{") {
			return text(src, x)
		}
	case *syntax.WordIter:
		if x.Name != nil && shellVariable(x.Name.Value) {
			return "for " + x.Name.Value
		}
	case *syntax.CoprocClause:
		if x.Name != nil && shellVariable(x.Name.Lit()) {
			return "coproc " + x.Name.Lit() // assigns the array NAME
		}
	case *syntax.CallExpr:
		return builtinEvaluates(src, x)
	case *syntax.DeclClause:
		// declare 'a[$(id)]=1' evaluates the subscript, as an assignment
		// does; declare -i makes later assignments arithmetic and -n makes
		// a name a reference, whose subscript is evaluated where it is used.
		for _, a := range x.Args {
			t := text(src, a)
			opt := a.Naked && (strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+"))
			if strings.ContainsAny(t, "[$`") || opt && strings.ContainsAny(t, "in") {
				return text(src, x)
			}
		}
	}
	return ""
}

// paramEvaluates reports whether a parameter expansion can run code or
// assign: anything but $x, ${x}, ${#x}, ${x[@]}, ${x[N]} and the operators
// that only pick, default, match, replace or change case.
func paramEvaluates(p *syntax.ParamExp) bool {
	if p.Excl || p.Names != 0 || p.Slice != nil || p.NestedParam != nil || p.Width || p.IsSet {
		return true
	}
	if p.Index != nil && !literalIndex(p.Index) {
		return true
	}
	if p.Exp == nil {
		return false
	}
	switch p.Exp.Op {
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	case syntax.OtherParamOps:
		// ${x@Q} quotes, ${x@U} … change case; ${x@P} expands the value as
		// a prompt (running its command substitutions), and others may come.
		w := ""
		if p.Exp.Word != nil {
			w = p.Exp.Word.Lit()
		}
		return w != "Q" && w != "U" && w != "u" && w != "L"
	}
	return false
}

// literalIndex reports whether a subscript is @, * or digits: the ones
// Bash does not evaluate as an expression.
func literalIndex(e syntax.ArithmExpr) bool {
	w, ok := e.(*syntax.Word)
	if !ok {
		return false
	}
	s := w.Lit()
	return s == "@" || s == "*" || (s != "" && strings.Trim(s, "0123456789") == "")
}

// shellVariable reports whether name is written the way Bash's own and
// the environment's variables are (PATH, IFS, PS4, BASH_ENV, LD_PRELOAD):
// a loop over one changes what later commands run or how they read.
func shellVariable(name string) bool {
	return name != "" && strings.ToUpper(name) == name
}

// codeBuiltins run a string as code (eval, trap, source, mapfile -C) or
// load code (enable -f): a rule cannot see what they run.
var codeBuiltins = map[string]bool{
	"eval": true, "trap": true, "source": true, ".": true, "enable": true, "fc": true,
	"mapfile": true, "readarray": true, // -C runs a callback string
}

// nameBuiltins take variable names, in which an array subscript is
// evaluated as arithmetic (printf -v 'a[$(id)]' runs id).
var nameBuiltins = map[string]bool{
	"printf": true, "read": true, "unset": true, "wait": true,
	"getopts": true, "test": true, "[": true, "declare": true, "typeset": true, "local": true,
	"export": true, "readonly": true, "let": true, "shift": true, "return": true, "exit": true,
}

// builtinEvaluates returns c's text when it is a builtin that runs a
// string as code, or one that takes a variable name and is given a word
// holding a subscript (or one Bash computes).
func builtinEvaluates(src string, c *syntax.CallExpr) string {
	args := c.Args
	lit := func(w *syntax.Word) string { return word(src, w).Value }
	for len(args) > 0 {
		if name := lit(args[0]); name != "command" && name != "builtin" {
			break
		}
		args = args[1:]
		for len(args) > 0 && strings.HasPrefix(lit(args[0]), "-") {
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return ""
	}
	switch name := lit(args[0]); {
	case codeBuiltins[name]:
		return text(src, c)
	case nameBuiltins[name]:
		for _, a := range args[1:] {
			if w := word(src, a); !w.Literal || strings.Contains(w.Value, "[") {
				return text(src, c)
			}
		}
	}
	return ""
}
