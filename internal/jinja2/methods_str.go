package jinja2

var strMethods = map[string]methodFn{}
var listMethods = map[string]methodFn{}
var tupleMethods = map[string]methodFn{}
var dictMethods = map[string]methodFn{}
var intMethods = map[string]methodFn{}
var floatMethods = map[string]methodFn{}
