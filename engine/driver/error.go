package driver

import (
	"fmt"
	"strconv"
)

// Error is a problem in a template, at compile or render time. Line and Col
// are 1-based; zero means unknown. errors.As finds the cause through Unwrap,
// such as a *roleparse.Error for bad rendered markup. Package engine calls
// it engine.Error.
type Error struct {
	// Template is the template's name (its file path when loaded from a
	// file system).
	Template string
	Line     int
	Col      int
	// Err is what went wrong.
	Err error
}

func (e *Error) Error() string {
	s := e.Template
	if e.Line > 0 {
		s += ":" + strconv.Itoa(e.Line)
		if e.Col > 0 {
			s += ":" + strconv.Itoa(e.Col)
		}
	}
	return s + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// MissingError reports a variable that the template uses but the data does
// not supply. Package engine calls it engine.MissingError.
type MissingError struct {
	Name string
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("variable %q is not supplied", e.Name)
}

// PanicError is a panic inside a template engine, returned as an error.
// Package engine calls it engine.PanicError.
type PanicError struct {
	Value any
	// Call, when not empty, says what the template called that panicked:
	// `calling "lookup"` for a function of the data, `calling the String
	// method of main.T` for a method that prints a value.
	Call string
}

func (e *PanicError) Error() string {
	if e.Call != "" {
		return fmt.Sprintf("%s: panic: %v", e.Call, e.Value)
	}
	return fmt.Sprintf("template engine panicked: %v", e.Value)
}
