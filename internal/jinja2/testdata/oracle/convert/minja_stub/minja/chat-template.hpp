// Stand-in for minja's chat-template.hpp: chat_template::apply records each
// (template, inputs, whether polyfills were asked for) that
// tests/test-polyfills.cpp applies, as one JSON line on stdout, instead of
// rendering it. Written for convert/suites18.py.
#pragma once
#include "minja.hpp"

namespace minja {
struct chat_template_inputs {
    json messages = json::array();
    json tools;
    bool add_generation_prompt = true;
    json extra_context;
};
struct chat_template_options {
    bool apply_polyfills = true;
    bool use_bos_token = true;
    bool use_eos_token = true;
    bool define_strftime_now = true;
    bool polyfill_tools = true;
    bool polyfill_tool_call_examples = true;
    bool polyfill_tool_calls = true;
    bool polyfill_tool_responses = true;
    bool polyfill_system_role = true;
    bool polyfill_object_arguments = true;
    bool polyfill_typed_content = true;
};
struct chat_template {
    std::string tpl, bos, eos;
    chat_template(const std::string & t, const std::string & b, const std::string & e) : tpl(t), bos(b), eos(e) {}
    std::string apply(const chat_template_inputs & in, const chat_template_options & o = chat_template_options()) const {
        json rec = {
            {"line", g_line},
            {"template", tpl},
            {"bos_token", bos},
            {"eos_token", eos},
            {"messages", in.messages},
            {"tools", in.tools},
            {"add_generation_prompt", in.add_generation_prompt},
            {"extra_context", in.extra_context.is_null() ? json::object() : in.extra_context},
            {"polyfills", o.apply_polyfills},
        };
        std::cout << rec.dump() << "\n";
        return "";
    }
};
}  // namespace minja
