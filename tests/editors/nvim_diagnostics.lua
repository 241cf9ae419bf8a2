-- Headless Neovim (0.7+) as dnlint-lsp's client: open a cfg, read vim.diagnostic.get(),
-- edit the buffer, read them again, write what was seen as JSON. Driven by test_lsp_nvim.py.
local cmd = vim.fn.json_decode(os.getenv("DNLINT_LSP_CMD"))
local file = os.getenv("DNLINT_CFG")
local out = os.getenv("DNLINT_OUT")

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = "dnlint",
  cmd = cmd,
  root_dir = vim.fn.fnamemodify(file, ":p:h"),
})
vim.lsp.buf_attach_client(buf, id)

local function seen()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(found, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, source = d.source, code = d.code or lsp.code,
    })
  end
  return found
end

local result = {}
result.opened = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
result.first = seen()
-- subdivisions=24 -> subdivisions=16: the finding goes away
vim.api.nvim_buf_set_text(buf, 2, 13, 2, 15, { "16" })
result.cleared = vim.wait(20000, function() return #vim.diagnostic.get(buf) == 0 end, 20)
result.after = seen()

local handle = io.open(out, "w")
handle:write(vim.fn.json_encode(result))
handle:close()
vim.lsp.stop_client(id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
vim.cmd("qa!")
