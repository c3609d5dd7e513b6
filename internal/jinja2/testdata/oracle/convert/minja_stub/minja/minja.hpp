// Stand-in for minja's header: Parser::parse + Node::render record each
// (template, bindings, options) that tests/test-syntax.cpp renders, as one
// JSON line on stdout, instead of rendering it. Written for convert/minja.py.
#pragma once
#include <nlohmann/json.hpp>
#include <iostream>
#include <memory>
#include <string>

using json = nlohmann::ordered_json;

extern int g_line;

namespace minja {
struct Options {
    bool trim_blocks;
    bool lstrip_blocks;
    bool keep_trailing_newline;
};
struct Context {
    json bindings;
    static std::shared_ptr<Context> make(const json & b) { auto c = std::make_shared<Context>(); c->bindings = b; return c; }
};
struct Node {
    std::string tpl;
    Options opts;
    std::string render(const std::shared_ptr<Context> & ctx) const {
        json rec = {
            {"line", g_line},
            {"template", tpl},
            {"bindings", ctx->bindings.is_null() ? json::object() : ctx->bindings},
            {"trim_blocks", opts.trim_blocks},
            {"lstrip_blocks", opts.lstrip_blocks},
            {"keep_trailing_newline", opts.keep_trailing_newline},
        };
        std::cout << rec.dump() << "\n";
        return "";
    }
};
struct Parser {
    static std::shared_ptr<Node> parse(const std::string & t, const Options & o) {
        auto n = std::make_shared<Node>(); n->tpl = t; n->opts = o; return n;
    }
};
}  // namespace minja
