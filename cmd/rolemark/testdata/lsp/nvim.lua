-- Drives `rolemark lsp` with Neovim's built-in LSP client (Neovim 0.7 or
-- later): opens the prompt files of a directory, waits for the diagnostics
-- of each, asks for a hover, completions and a definition, stops the server
-- and writes what it saw as JSON. cmd/rolemark/lsp_nvim_test.go runs it.
--
-- Environment: ROLEMARK_LSP_BIN (the rolemark binary), ROLEMARK_LSP_ROOT
-- (the prompt directory), ROLEMARK_LSP_OUT (the JSON file to write),
-- ROLEMARK_LSP_FILES (the files to open, separated by spaces).
local bin = os.getenv("ROLEMARK_LSP_BIN")
local root = os.getenv("ROLEMARK_LSP_ROOT")
local out = os.getenv("ROLEMARK_LSP_OUT")
local files = vim.split(os.getenv("ROLEMARK_LSP_FILES"), " ", { trimempty = true })
local result = { diagnostics = {}, errors = {} }

local function main()
  local exited = false
  local client_id = vim.lsp.start_client({
    name = "rolemark",
    cmd = { bin, "lsp" },
    root_dir = root,
    on_exit = function(code)
      result.exit_code = code
      exited = true
    end,
  })
  assert(client_id, "the client did not start")
  local client = vim.lsp.get_client_by_id(client_id)
  local bufs = {}
  for _, f in ipairs(files) do
    local b = vim.fn.bufadd(root .. "/" .. f)
    vim.fn.bufload(b)
    vim.lsp.buf_attach_client(b, client_id)
    bufs[f] = b
  end
  local all = vim.wait(30000, function()
    for _, b in pairs(bufs) do
      if #vim.diagnostic.get(b) == 0 then
        return false
      end
    end
    return true
  end, 20)
  if not all then
    table.insert(result.errors, "timed out waiting for diagnostics")
  end
  for f, b in pairs(bufs) do
    local ds = {}
    for _, d in ipairs(vim.diagnostic.get(b)) do
      -- lnum and col are Neovim's: 0-based, col in bytes of the line, as
      -- the client converts them from LSP's UTF-16 characters.
      table.insert(ds, {
        lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
        severity = d.severity, source = d.source, message = d.message,
      })
    end
    table.sort(ds, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
    result.diagnostics[f] = ds
  end

  -- find returns the 0-based line and UTF-16 character of the first
  -- occurrence of text in file f, plus offset characters.
  local function find(f, text, offset)
    local lines = vim.api.nvim_buf_get_lines(bufs[f], 0, -1, false)
    for i, line in ipairs(lines) do
      local s = line:find(text, 1, true)
      if s then
        local _, units = vim.str_utfindex(line, s - 1)
        return { textDocument = { uri = vim.uri_from_bufnr(bufs[f]) }, position = { line = i - 1, character = units + (offset or 0) } }
      end
    end
    error("no " .. text .. " in " .. f)
  end
  local function request(method, params, bufnr)
    local resp, err = client.request_sync(method, params, 10000, bufnr)
    if not resp then
      error(method .. ": " .. tostring(err))
    end
    if resp.err then
      error(method .. ": " .. vim.inspect(resp.err))
    end
    return resp.result
  end
  local function labels(list)
    local items = list.items or list
    local out = {}
    for _, it in ipairs(items) do
      table.insert(out, it.label)
    end
    return out
  end

  local hover = request("textDocument/hover", find("greet.hbs", "{{plan}}", 3), bufs["greet.hbs"])
  result.hover = hover and hover.contents
  result.completion_inputs = labels(request("textDocument/completion", find("greet.hbs", "{{plan}}", 2), bufs["greet.hbs"]))
  result.completion_partials = labels(request("textDocument/completion", find("greet.hbs", "{{> ", 4), bufs["greet.hbs"]))
  result.completion_filters = labels(request("textDocument/completion", find("greet.j2", "|", 1), bufs["greet.j2"]))
  local def = request("textDocument/definition", find("greet.hbs", "{{> header", 6), bufs["greet.hbs"])
  if def and def.uri then
    result.definition = vim.uri_to_fname(def.uri):sub(#root + 2)
  end

  client.stop()
  if not vim.wait(10000, function() return exited end, 20) then
    table.insert(result.errors, "the server did not exit")
  end
end

local ok, err = pcall(main)
if not ok then
  table.insert(result.errors, tostring(err))
end
local fh = assert(io.open(out, "w"))
fh:write(vim.fn.json_encode(result))
fh:close()
vim.cmd("qa!")
