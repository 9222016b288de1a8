#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""comment_refs.py - every file and every function or macro that a comment names exists.

The comments of the checked folders (ROOMS below, and the top-level build files) are read:
C and C++ (/* */ and //, strings and character constants skipped), Python (# and docstrings),
shell (#, quotes and here-documents skipped), Meson, machine files and CMake (#). Markdown files
count as prose: only the paths in their code spans, fenced blocks and link targets are checked,
and only those with a '/' or a known source extension. Folders named *_corpus are skipped.

What a comment can name, and what makes it exist:
  a file        a token ending in a known extension (EXTS), or a path starting with a room
                ("tests/common/", "bench/run"). A path with a '/' must resolve from the root,
                from the commenting file's folder or one of its parents, or from a room; a bare
                name must be the name of some file of the tree; a glob (*, <name>) must match one.
                Else it is accepted when an #include line of the tree names it, when the system
                include folders have it, or when the allowlist does (generated files).
  a function    a name written as a call, name() or name(args), and any name with a project
  or a macro    prefix (PREFIXES) whatever its form (NAME_<x>, name_*, a_##b are patterns). It
                must be an identifier of the code (comments removed) of some file of the tree,
                or match a name pasted with ## in a #define of the tree (its parameters taken as
                any text). Else it is accepted when the system headers that the tree includes
                declare it (one grep for the few names left), or when the allowlist does.
  both          "FILE.c name()", "FILE.c's name_x": the file exists, and another file defines
                or declares the function or macro, but not that one (it moved).

Allowlist (default: comment_refs_allow.txt beside this script): lines "file GLOB  # why" or
"function GLOB  # why"; the reason is required. Entries that accepted nothing are listed on
stderr (they may be stale themselves).

Output: one line per stale reference, "path:line: names 'X', which does not exist (file|function)",
then a summary line. Exit 0 when none, 1 when some, 2 on a usage error.

Usage: comment_refs.py [--root DIR] [--allow FILE]      (DIR: default two levels above this script)
       comment_refs.py --self-test                      (checks the checker on a tree it makes)
"""
import argparse
import bisect
import fnmatch
import glob
import io
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tokenize

ROOMS = ("src", "include", "tests", "bench")  # the folders whose comments are read
TOP_FILES = ("meson.build", "meson_options.txt", "meson.options")  # top-level files also read
PREFIXES = ("sbx_", "satbox_", "satbox2d_", "SBX_", "SBX2D_", "SATBOX_", "tb_", "tb2_", "TB_", "TB2_",
            "ca_", "sbb_")
EXTS = ("c", "h", "cpp", "hpp", "py", "build", "txt", "md", "ini", "in", "json", "cmake")
C_EXTS = {".c", ".h", ".cpp", ".hpp", ".cc", ".hh", ".cxx", ".inl"}
CORPUS_SUFFIX = "_corpus"
PLACEHOLDERS = {"FILE", "FILES", "DIR", "PATH", "NAME", "SRC", "SRCDIR", "BUILD", "BUILDDIR", "OUT", "PREFIX",
                "ROOT", "TARGET", "X"}  # words that stand for any name in a path
ALLOW_NAME = "comment_refs_allow.txt"
SELF = os.path.realpath(__file__)
SYSTEM_ROOTS = ["/usr/local/include", "/usr/include"]
SYSTEM_GLOBS = ["/usr/include/*-linux-gnu*", "/usr/lib/gcc/*/*/include", "/usr/lib/gcc-cross/*/*/include"]

# ---- the tree ---------------------------------------------------------------------------------


def list_files(root):
    """Tracked and untracked-but-not-ignored files (posix paths relative to root) that exist."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             check=True, capture_output=True).stdout.decode("utf-8", "surrogateescape")
        names = sorted({p for p in out.split("\0") if p})
    except (OSError, subprocess.CalledProcessError):
        names = []
        for d, subdirs, files in os.walk(root):
            subdirs[:] = [s for s in subdirs if s != ".git"]
            rel = os.path.relpath(d, root)
            names += [f if rel == "." else posixpath.join(rel.replace(os.sep, "/"), f) for f in files]
        names.sort()
    return [p for p in names if os.path.lexists(os.path.join(root, p))]


class Tree:
    def __init__(self, root):
        self.root = root
        self.files = list_files(root)
        self.file_set = set(self.files)
        self.dirs = {""}
        for p in self.files:
            d = posixpath.dirname(p)
            while d not in self.dirs:
                self.dirs.add(d)
                d = posixpath.dirname(d)
        self.basenames = {posixpath.basename(p) for p in self.files}
        self.rooms = [r for r in ROOMS if r in self.dirs]

    def exists(self, p, want_dir):
        return p in self.dirs if want_dir else (p in self.file_set or p in self.dirs)


def in_corpus(path):
    return any(part.endswith(CORPUS_SUFFIX) for part in path.split("/")[:-1])


def read_text(path):
    """The file's text, or None when it is binary (a NUL byte, or not UTF-8)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\0" in data[:65536]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def kind_of(path, text):
    name = posixpath.basename(path)
    if name.endswith(".in"):
        name = name[:-3]
    ext = posixpath.splitext(name)[1]
    if ext in C_EXTS:
        return "c"
    if ext == ".py":
        return "py"
    if ext == ".sh":
        return "sh"
    if ext == ".md":
        return "md"
    if name in ("meson.build", "meson_options.txt", "meson.options") or ext in (".ini", ".wrap"):
        return "meson"
    if name == "CMakeLists.txt" or ext == ".cmake":
        return "cmake"
    if text.startswith("#!"):
        first = text.split("\n", 1)[0]
        if "python" in first:
            return "py"
        if re.search(r"\b(ba|da|z|k)?sh\b", first):
            return "sh"
    return None


# ---- comments and code ------------------------------------------------------------------------


class Lines:
    """Offset -> line number."""

    def __init__(self, text):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset):
        return bisect.bisect_right(self.starts, offset)


def split_comment(text, first_line, out):
    for i, part in enumerate(text.split("\n")):
        if part.strip():
            out.append((first_line + i, part))


def blank(text, spans):
    """text with the spans replaced by spaces (newlines kept)."""
    if not spans:
        return text
    parts, pos = [], 0
    for a, b in spans:
        parts.append(text[pos:a])
        parts.append(re.sub(r"[^\n]", " ", text[a:b]))
        pos = b
    parts.append(text[pos:])
    return "".join(parts)


C_TOKEN = re.compile(r"""
    (?P<lc>//(?:[^\n\\]|\\.)*)
  | (?P<bc>/\*.*?(?:\*/|\Z))
  | (?P<str>(?<!\w)(?:u8|[uUL])?R"(?P<d>[^()\\\s"]{0,16})\(.*?\)(?P=d)"
           | "(?:[^"\\\n]|\\.)*"?
           | '(?:[^'\\\n]|\\.)*'?)
  | (?P<inc>^[ \t]*\#[ \t]*include[ \t]*<[^>\n]*>)
""", re.S | re.M | re.X)


def lex_c(text):
    """Comments as (line, text), the code without comments, the code without comments and strings."""
    lines, comments, cspans, sspans = Lines(text), [], [], []
    for m in C_TOKEN.finditer(text):
        if m.group("lc") is not None:
            split_comment(m.group("lc")[2:].replace("\\\n", " \n"), lines.line(m.start()), comments)
            cspans.append(m.span())
        elif m.group("bc") is not None:
            body = m.group("bc")[2:]
            split_comment(body[:-2] if body.endswith("*/") else body, lines.line(m.start()), comments)
            cspans.append(m.span())
        elif m.group("str") is not None:
            sspans.append(m.span())
    code = blank(text, cspans)
    strings = "\n".join(text[a:b] for a, b in sspans)
    return comments, code, blank(text, sorted(cspans + sspans)), strings


def lex_python(text):
    """Comments and docstrings (statements that are only a string) as (line, text); the rest is code."""
    comments, spans = [], []
    lines = Lines(text)

    def offset(rc):
        return lines.starts[rc[0] - 1] + rc[1] if rc[0] - 1 < len(lines.starts) else len(text)

    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return lex_hash(text, "meson")
    skip = {tokenize.NL, tokenize.COMMENT, tokenize.ENCODING}
    sig = [t for t in toks if t.type not in skip]
    for t in toks:
        if t.type == tokenize.COMMENT:
            split_comment(t.string[1:], t.start[0], comments)
            spans.append((offset(t.start), offset(t.end)))
    for i, t in enumerate(sig):
        if t.type != tokenize.STRING:
            continue
        prev = sig[i - 1].type if i else tokenize.NEWLINE
        nxt = sig[i + 1].type if i + 1 < len(sig) else tokenize.NEWLINE
        starts = prev in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
        if starts and nxt in (tokenize.NEWLINE, tokenize.ENDMARKER):
            split_comment(t.string, t.start[0], comments)
            spans.append((offset(t.start), offset(t.end)))
    code = blank(text, sorted(spans))
    return comments, code, code, code


HASH_TOKEN = {
    "meson": re.compile(r"(?P<str>'''.*?(?:'''|\Z)|'(?:[^'\\\n]|\\.)*'?)|(?P<lc>#[^\n]*)", re.S),
    "cmake": re.compile(r"(?P<lc>#\[(?P<eq>=*)\[.*?\](?P=eq)\]|#[^\n]*)|(?P<str>\"(?:[^\"\\]|\\.)*\"?)", re.S),
}


def lex_hash(text, kind="meson"):
    lines, comments, spans = Lines(text), [], []
    for m in HASH_TOKEN[kind].finditer(text):
        if m.group("lc") is not None:
            split_comment(m.group("lc").lstrip("#"), lines.line(m.start()), comments)
            spans.append(m.span())
    code = blank(text, spans)
    return comments, code, code, code


HEREDOC = re.compile(r"<<(-?)[ \t]*(?:'([^'\n]*)'|\"([^\"\n]*)\"|\\?([\w.-]+))")


def lex_shell(text):
    """# comments of a shell script: a '#' that starts a word outside quotes and here-documents."""
    comments, spans = [], []
    lines = text.split("\n")
    pos, quote, pending, body = 0, None, [], None
    for no, line in enumerate(lines, 1):
        start = pos
        pos += len(line) + 1
        if body is not None:
            strip_tabs, delim = body
            if (line.lstrip("\t") if strip_tabs else line) == delim:
                body = pending.pop(0) if pending else None
            continue
        i, n = 0, len(line)
        while i < n:
            ch = line[i]
            if quote == "'":
                if ch == "'":
                    quote = None
            elif quote == '"':
                if ch == "\\":
                    i += 1
                elif ch == '"':
                    quote = None
            elif ch == "\\":
                i += 1
            elif ch in "'\"":
                quote = ch
            elif ch == "#" and (i == 0 or line[i - 1] in " \t;&|()"):
                split_comment(line[i + 1:], no, comments)
                spans.append((start + i, start + n))
                break
            elif line.startswith("<<<", i):
                i += 2  # a here-string
            elif line.startswith("<<", i):
                m = HEREDOC.match(line, i)
                if m:
                    pending.append((m.group(1) == "-", next(g for g in m.groups()[1:] if g is not None)))
                    i = m.end() - 1
            i += 1
        if pending and quote is None:
            body = pending.pop(0)
    code = blank(text, spans)
    return comments, code, code, code


MD_FENCE = re.compile(r"^\s*(```+|~~~+)")
MD_CODE = re.compile(r"(`+)(.+?)\1")
MD_PROSE_PATH = re.compile(r"(?<![\w/.<-])((?:[\w.-]+/)+[\w.-]+\.(?:c|h|cpp|py|build|ini|json))(?![\w/])")
MD_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def lex_markdown(text):
    """Markdown is prose: the text of its code spans, fenced blocks and link targets, as (line, text)."""
    out, fence = [], None
    for no, line in enumerate(text.split("\n"), 1):
        m = MD_FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            else:
                out.append((no, line))
            continue
        if m:
            fence = m.group(1)
            continue
        for m in MD_CODE.finditer(line):
            out.append((no, m.group(2)))
        # Paths written in the prose itself (a table cell, a wrapped sentence): any token with a
        # folder and a source extension, outside code spans, links and URLs.
        prose = re.sub(r"\w+://\S+", " ", MD_LINK.sub(" ", MD_CODE.sub(" ", line)))
        for m in MD_PROSE_PATH.finditer(prose):
            out.append((no, m.group(1)))
        for m in MD_LINK.finditer(line):
            target = m.group(1).split("#", 1)[0]
            if target and not re.match(r"[a-zA-Z][\w+.-]*:", target):
                out.append((no, target))
    return out, "", "", ""


def lex(kind, text):
    if kind == "c":
        return lex_c(text)
    if kind == "py":
        return lex_python(text)
    if kind == "sh":
        return lex_shell(text)
    if kind == "md":
        return lex_markdown(text)
    return lex_hash(text, kind)


# ---- what a comment names ---------------------------------------------------------------------

URL = re.compile(r"\b[a-zA-Z][\w+.-]*://[^\s)>\]'\"`]*|\bwww\.[^\s)>\]'\"`]+|[\w.+-]+@[\w-]+\.[\w.-]+")
ANGLE = re.compile(r"<([\w.+-]+(?:/[\w.+-]+)*\.(?:h|hpp|hh|inl))>|<([\w.+-]+(?:/[\w.+-]+)+)>")
PATH_TOKEN = re.compile(r"(?:[\w.+\-*/~]|<[\w-]+>|\{[\w.,+\-]*\}|(?<=\.)\[\w+\])+")
FILE_END = re.compile(r"[\w\-+*>}]\.(?:%s|\[\w+\])$" % "|".join(EXTS))
IDENT = r"[A-Za-z_]\w*"
CALL = re.compile(r"(?<![\w$])(%s)\((?!(?:s|es|ies)\))" % IDENT)
PATTERN_TAIL = r"(?:(?:<\w+>|\*|\s*##\s*\w+|\{[\w,|]*\})\w*)*"
PREFIXED = re.compile(r"(?<![\w$])((?:%s)\w*%s)" % ("|".join(PREFIXES), PATTERN_TAIL))
FILE_THEN_NAME = re.compile(r"(?:'s)?[ \t]+(%s)(\()?(?![\w<*#])" % IDENT)


def file_token(tok):
    """The file or path that a token names (a glob when it has placeholders), or None."""
    if tok.endswith("..."):
        tok = tok.rstrip(".") + "*"  # "tests/fuzz/fuzz_corpus/crash-348581ad...": an abbreviated name
    tok = tok.rstrip(".,-~")
    while tok.startswith("./"):
        tok = tok[2:]
    if not tok or tok.startswith(("-", "/", "~")) or "//" in tok:
        return None  # an option, an absolute path (not the tree's), a URL's remains
    if FILE_END.search(tok):
        return "*" + tok if tok.startswith("_") else tok  # "its _tpl.h": a suffix of names
    first = tok.lstrip("./").split("/", 1)
    if len(first) == 2 and first[0] in ROOMS:
        return tok
    return None


def placeholders(tok):
    """The token with its placeholder words (PLACEHOLDERS) and <name>s as globs."""
    parts = []
    for part in tok.split("/"):
        stem, dot, ext = part.partition(".")
        if stem in PLACEHOLDERS:
            part = "*" + dot + ext
        parts.append(re.sub(r"<[\w-]+>", "*", part))
    return "/".join(parts)


def references(text, prose):
    """(files, functions, pairs) that one line of comment names: files as (token, angle), functions
    as names or patterns (a call keeps its "()"), pairs as (file token, name) for "FILE.c name()"."""
    text = URL.sub(lambda m: " " * len(m.group()), text)
    files, funcs, pairs, spans = [], [], [], []
    for m in ANGLE.finditer(text):
        files.append((m.group(1) or m.group(2), True))
        spans.append(m.span())
    text = blank(text, spans)
    spans = []
    for m in PATH_TOKEN.finditer(text):
        tok = file_token(m.group())
        if tok is None:
            continue
        parts = tok.split("/")
        if len(parts) > 1 and any(FILE_END.search(p) for p in parts[:-1]):
            subs = [p for p in parts if p]  # "api.c/api2d.c": one or the other
        else:
            subs = [tok]
        files += [(sub, False) for sub in subs]
        spans.append(m.span())
        if not prose and len(subs) == 1:
            after = FILE_THEN_NAME.match(text, m.end())
            if after and (after.group(2) or "_" in after.group(1)):  # a call, or a name_with_underscores
                pairs.append((tok, after.group(1) + (after.group(2) and "()" or "")))
    if prose:
        return files, funcs, pairs
    text = blank(text, spans)
    spans = []
    for m in PREFIXED.finditer(text):
        name = m.group(1)
        if name not in PREFIXES:
            funcs.append(name)
        spans.append(m.span())
    text = blank(text, spans)
    for m in CALL.finditer(text):
        name = m.group(1)
        if len(name) > 1:
            funcs.append(name + "()")
    return files, funcs, pairs


def bare(name):
    return name[:-2] if name.endswith("()") else name


def name_regex(name):
    """A comment's name as a regex (its <x>, *, ## and {a,b} parts as any text), or None when plain."""
    name = bare(name)
    if not re.search(r"[<*#{]|_$", name):
        return None
    out, pos = [], 0
    for m in re.finditer(r"<\w+>|\*|\s*##\s*(?:\w+\s*(?=##)|\w*)|\{([\w,|]*)\}", name):
        out.append(re.escape(name[pos:m.start()]))
        if m.group(1) is not None:
            out.append("(?:%s)" % "|".join(re.escape(a) for a in re.split(r"[,|]", m.group(1))))
        else:
            out.append(r"\w*")
        pos = m.end()
    out.append(re.escape(name[pos:]))
    if name.endswith("_"):
        out.append(r"\w*")
    return re.compile("".join(out))


def samples(name):
    """Plain names that a comment's pattern stands for, to try against the code's pasted patterns."""
    res = []
    for fill in ("X", "x", "1"):
        s = re.sub(r"<\w+>|\*|\s*##\s*\w*|\{([\w,|]*)\}",
                   lambda m: re.split(r"[,|]", m.group(1))[0] if m.group(1) else fill, bare(name))
        res.append(s + fill if s.endswith("_") else s)
    return res


# ---- the code's names -------------------------------------------------------------------------

DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\(([^)]*)\))?((?:[^\n\\]|\\.)*)", re.M | re.S)
PASTE = re.compile(r"\w+(?:\s*##\s*\w+)+|##\s*\w+")
INCLUDE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"\n]+)[>\"]", re.M)
WORD = re.compile(IDENT)
DFLAG = re.compile(r"-[DU](%s)" % IDENT)
NOT_TYPES = {"return", "else", "case", "do", "goto", "sizeof", "typeof", "if", "while", "for", "switch",
             "defined", "alignof", "_Alignof", "not", "and", "or", "in", "await", "yield", "lambda"}


class Pasted:
    """A name that a #define pastes with ##, as its parts: text, or None for a parameter."""

    def __init__(self, parts):
        self.parts = tuple(parts)
        self.regex = re.compile("".join(r"\w*" if x is None else re.escape(x) for x in parts))

    def match(self, name, ids):
        """Whether the macro can paste that name: each parameter's part empty or an identifier of the code."""
        if not self.regex.fullmatch(name):
            return False

        def rest(i, pos):
            if i == len(self.parts):
                return pos == len(name)
            part = self.parts[i]
            if part is not None:
                return name.startswith(part, pos) and rest(i + 1, pos + len(part))
            return any((end == pos or name[pos:end] in ids) and rest(i + 1, end)
                       for end in range(pos, len(name) + 1))

        return rest(0, 0)


def pasted_names(code):
    """The names that the #defines of a C file paste with ## (a parameter stands for any identifier)."""
    out = []
    for m in DEFINE.finditer(code):
        params = {p.strip() for p in (m.group(3) or "").split(",")} | {"__VA_ARGS__"}
        for p in PASTE.finditer(m.group(4)):
            parts = [None if x in params else x for x in re.split(r"\s*##\s*", p.group()) if x]
            if p.group().startswith("##") or all(x is None for x in parts):
                continue
            out.append(Pasted(parts))
    return out


class Code:
    """What the code (comments removed) of every readable file of the tree has: identifiers (strings
    left out in C), names pasted by #defines, #include targets, and the file names in strings."""

    def __init__(self):
        self.ids, self.by_file, self.pasted, self.pasted_by_file = set(), {}, [], {}
        self.includes, self.file_names, self.text, self.kind = set(), set(), {}, {}

    def add(self, path, kind, code, code_no_strings, strings):
        ids = set(WORD.findall(code_no_strings)) | set(DFLAG.findall(code))
        self.by_file[path] = ids
        self.ids |= ids
        self.text[path], self.kind[path] = code_no_strings, kind
        if kind == "c":
            pats = list({p.parts: p for p in pasted_names(code)}.values())
            self.pasted_by_file[path] = pats
            self.pasted += pats
            self.includes |= set(INCLUDE.findall(code))
        for m in PATH_TOKEN.finditer(strings):
            tok = file_token(m.group().lstrip("/"))
            if tok and tok.split("/", 1)[0] not in ROOMS:  # a source's path in a message is no output
                self.file_names.add(tok)

    def finish(self):
        self.pasted = list({p.parts: p for p in self.pasted}.values())

    def has(self, name):
        """Whether some file's code has the name (or, for a pattern, a name that fits it)."""
        rx = name_regex(name)
        if rx is None:
            return bare(name) in self.ids or any(p.match(bare(name), self.ids) for p in self.pasted)
        return any(rx.fullmatch(i) for i in self.ids) or \
            any(p.regex.fullmatch(s) for s in samples(name) for p in self.pasted)

    def defines(self, path, name):
        """Whether a file's code defines or declares a function or macro of that name."""
        kind, code = self.kind.get(path), self.text.get(path, "")
        n = re.escape(name)
        if kind == "c":
            if re.search(r"^[ \t]*#[ \t]*define[ \t]+%s\b" % n, code, re.M):
                return True
            if any(p.match(name, self.ids) for p in self.pasted_by_file.get(path, [])):
                return True
            for m in re.finditer(r"([\w*]+)\s*\b%s\s*\(" % n, code):
                if m.group(1).endswith("*") or m.group(1) not in NOT_TYPES:
                    return True
            return False
        if kind == "py":
            return re.search(r"^\s*(?:async\s+)?(?:def|class)\s+%s\b|^\s*%s\s*=" % (n, n), code, re.M) is not None
        if kind == "sh":
            return re.search(r"^\s*(?:function\s+%s\b|%s\s*\(\s*\))" % (n, n), code, re.M) is not None
        return name in self.by_file.get(path, set())

    def moved(self, path, name):
        """Whether a function or macro that a comment places in a file is defined (or declared) by
        another file and not by that one."""
        if path not in self.kind or self.defines(path, name):
            return False
        return any(self.defines(p, name) for p in self.kind if p != path and name in self.by_file[p])


# ---- the system -------------------------------------------------------------------------------


class System:
    """What the system include folders have: headers, and the identifiers of the headers that
    the tree includes (one grep, for the names nothing else accepts)."""

    def __init__(self):
        self.roots = [r for r in SYSTEM_ROOTS if os.path.isdir(r)]
        for g in SYSTEM_GLOBS:
            self.roots += sorted(d for d in glob.glob(g) if os.path.isdir(d))

    def find(self, rel, depth=1):
        """The system path of a header, looked for in each root and up to depth folders below
        (bullet/LinearMath/..., c++/12/vector)."""
        for r in self.roots:
            p = os.path.join(r, rel)
            if os.path.isfile(p):
                return r, p
        for level in range(1, depth + 1):
            for r in self.roots:
                for p in sorted(glob.glob(os.path.join(glob.escape(r), *["*"] * level, glob.escape(rel)))):
                    if os.path.isfile(p):
                        return r, p
        return None

    def grep_paths(self, includes):
        """What to grep: each included header's package folder (ode/, bullet/, c++/...), a
        compiler's include folder whole, a top-level C header with the multiarch folder."""
        out = set()
        for inc in includes:
            hit = self.find(inc, depth=2)
            if not hit:
                continue
            r, p = hit
            first = os.path.relpath(p, r).split(os.sep)[0]
            if "/gcc" in r:
                out.add(r)
            elif first == os.path.basename(p):
                out.add(p)
                out |= {d for d in self.roots if d.startswith("/usr/include/") and "-linux-" in d}
            else:
                out.add(os.path.join(r, first))
        return [p for p in sorted(out) if not any(p.startswith(q + "/") for q in out)]

    def identifiers(self, names, includes):
        names = sorted(set(names))
        paths = self.grep_paths(includes)
        if not names or not paths:
            return set()
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(names) + "\n")
        try:
            out = subprocess.run(["grep", "-rhowIF", "-f", f.name] + paths, capture_output=True).stdout
            return set(out.decode("utf-8", "replace").split()) & set(names)
        except OSError:
            return set()
        finally:
            os.unlink(f.name)


# ---- the allowlist ----------------------------------------------------------------------------


class Allow:
    def __init__(self, path):
        self.entries, self.errors = [], []  # entries: [kind, glob, line, used]
        if path is None or not os.path.isfile(path):
            return
        with open(path, encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                text = line.strip()
                if not text or text.startswith("#"):
                    continue
                m = re.match(r"(file|function)\s+(\S+)\s+#\s*\S", text)
                if not m:
                    self.errors.append(f"{path}:{no}: want 'file GLOB  # why' or 'function GLOB  # why'")
                    continue
                self.entries.append([m.group(1), m.group(2), no, False])

    def accepts(self, kind, name):
        name = bare(name)
        for e in self.entries:
            if e[0] == kind and (fnmatch.fnmatchcase(name, e[1]) or
                                 (kind == "file" and fnmatch.fnmatchcase(posixpath.basename(name.rstrip("/")), e[1]))):
                e[3] = True
                return True
        return False


# ---- the check --------------------------------------------------------------------------------


def expand_braces(tok):
    m = re.search(r"\{([^{}]*)\}", tok)
    if not m:
        return [tok]
    return [x for alt in m.group(1).split(",") for x in expand_braces(tok[:m.start()] + alt + tok[m.end():])]


def bases(tree, src):
    """Where a path with a '/' may start from: the root, the commenting file's folder and its
    parents, the rooms."""
    out, d = [""], posixpath.dirname(src)
    while d:
        out.append(d)
        d = posixpath.dirname(d)
    return out + tree.rooms


def in_tree(tree, tok, src):
    """Whether a comment's file or path names something of the tree (from src's point of view)."""
    return all(_in_tree(tree, alt, src) for alt in expand_braces(tok))


def _in_tree(tree, tok, src):
    want_dir = tok.endswith("/")
    t = re.sub(r"<[\w-]+>", "*", tok.rstrip("/"))
    is_glob = any(c in t for c in "*?[")
    if "/" not in t and not t.startswith(".."):
        if is_glob:
            return any(fnmatch.fnmatchcase(b, t) for b in tree.basenames)
        if want_dir:
            return any(posixpath.basename(d) == t for d in tree.dirs)
        return t in tree.basenames
    for b in bases(tree, src):
        p = posixpath.normpath(posixpath.join(b, t))
        if p.startswith("../") or p == "..":
            continue
        if is_glob:
            if any(fnmatch.fnmatchcase(x, p) for x in (tree.dirs if want_dir else tree.file_set | tree.dirs)):
                return True
        elif tree.exists(p, want_dir):
            return True
    return False


def generated(tree, code, tok):
    """Why a file that the tree lacks is one that the build or the scripts write (or None): a
    configured file (the tree has its name plus .in), a program built from a source of the tree,
    or a name that the code's strings give (the scripts' outputs)."""
    t = placeholders(tok.rstrip("/"))
    base = posixpath.basename(t)
    if "*" not in base and "?" not in base and "[" not in base:
        if base + ".in" in tree.basenames:
            return "configured from " + base + ".in"
        if "." not in base and any(base + ext in tree.basenames for ext in (".c", ".cpp", ".cc")):
            return "a program built from " + base + ".c(pp)"
    for name in sorted(code.file_names):
        n = placeholders(name)
        if fnmatch.fnmatchcase(n, t) or fnmatch.fnmatchcase(n, "*/" + t) or n == t or n.endswith("/" + t):
            return "named by the code: '" + name + "'"
    return None


def ignored(root, tree, found):
    """The findings (path, line, token) whose token git ignores (bench/results/, build*/...)."""
    queries = {}
    for path, line, tok in found:
        t = re.sub(r"[*?]|\[\w+\]", "x", placeholders(tok))
        for b in bases(tree, path)[:2]:
            p = posixpath.normpath(posixpath.join(b, t)) + ("/" if tok.endswith("/") else "")
            if not p.startswith(".."):
                queries.setdefault(p, set()).add((path, line, tok))
    if not queries:
        return set()
    try:
        run = subprocess.run(["git", "-C", root, "check-ignore", "--no-index", "--stdin", "-z"],
                             input="\0".join(queries).encode() + b"\0", capture_output=True)
    except OSError:
        return set()
    out = set()
    for p in run.stdout.decode("utf-8", "surrogateescape").split("\0"):
        out |= queries.get(p, set())
    return out


def system_header(tok, includes, system):
    t = tok.rstrip("/")
    if any(inc == t or inc.endswith("/" + t) for inc in includes):
        return True
    return not any(c in t for c in "*?[<") and system.find(t) is not None


def check(root, allow_path, verbose=False):
    t0 = time.time()
    tree = Tree(root)
    allow = Allow(allow_path)
    if allow.errors:
        for e in allow.errors:
            print(e, file=sys.stderr)
        return 2
    system, code, scanned = System(), Code(), []
    allow_abs = os.path.abspath(allow_path) if allow_path else None
    for path in tree.files:
        full = os.path.join(root, path)
        if in_corpus(path) or os.path.islink(full) or os.path.abspath(full) == allow_abs:
            continue
        text = read_text(full)
        kind = kind_of(path, text) if text is not None else None
        if kind is None:
            continue
        comments, c_code, c_ids, c_strings = lex(kind, text)
        if kind != "md" and os.path.realpath(full) != SELF:  # not the self-test's fake names
            code.add(path, kind, c_code, c_ids, c_strings)
        if (path.split("/", 1)[0] in ROOMS and "/" in path) or path in TOP_FILES:
            scanned.append((path, comments, kind == "md"))
    code.finish()
    outside = {i for i in code.includes if not any(p == i or p.endswith("/" + i) for p in tree.files)}

    def note(path, line, name, why):
        if verbose:
            print(f"  accepted {path}:{line}: '{name}' ({why})", file=sys.stderr)

    findings, files_left, funcs_left, nrefs = set(), [], [], 0
    for path, comments, prose in scanned:
        for line, text in comments:
            files, funcs, pairs = references(text, prose)
            nrefs += len(files) + len(funcs)
            for tok, angle in files:
                if angle and tok in outside:
                    note(path, line, tok, "an #include of the tree")
                elif not in_tree(tree, tok, path) and not in_tree(tree, placeholders(tok), path):
                    files_left.append((path, line, tok))
            for name in funcs:
                if not code.has(name):
                    funcs_left.append((path, line, name))
            for tok, name in pairs:
                hits = [p for p in tree.files if p == tok or p.endswith("/" + tok)]
                if len(hits) == 1 and code.moved(hits[0], bare(name)):
                    findings.add((path, line, f"{tok} {name}", "function"))

    ign = ignored(root, tree, files_left)
    for path, line, tok in files_left:
        if (path, line, tok) in ign:
            note(path, line, tok, "ignored by git: written by the build or the scripts")
        elif generated(tree, code, tok):
            note(path, line, tok, "generated: " + generated(tree, code, tok))
        elif allow.accepts("file", tok):
            note(path, line, tok, "allowlist")
        elif system_header(tok, outside, system):
            note(path, line, tok, "system header")
        else:
            findings.add((path, line, tok, "file"))
    for f in [f for f in funcs_left if allow.accepts("function", f[2])]:
        note(*f, "allowlist")
        funcs_left.remove(f)
    known = system.identifiers({bare(n) for _, _, n in funcs_left if name_regex(n) is None}, outside)
    for path, line, name in funcs_left:
        if bare(name) in known:
            note(path, line, name, "system headers")
        else:
            findings.add((path, line, name, "function"))

    for path, line, name, kind in sorted(findings, key=lambda f: (f[0], f[1], f[2])):
        print(f"{path}:{line}: names '{name}', which does not exist ({kind})")
    for kind, pattern, no, used in allow.entries:
        if not used:
            print(f"note: {allow_path}:{no}: '{kind} {pattern}' accepted nothing", file=sys.stderr)
    nfile = sum(1 for f in findings if f[3] == "file")
    took = time.time() - t0
    checked = f"{len(scanned)} files, {nrefs} references checked in {took:.1f} s"
    nfiles = len({f[0] for f in findings})
    if findings:
        nfunc = len(findings) - nfile
        print(f"comment_refs: {len(findings)} stale references ({nfile} file{'s' * (nfile != 1)}, "
              f"{nfunc} function{'s' * (nfunc != 1)}) "
              f"in {nfiles} file{'s' * (nfiles != 1)}; {checked}")
        return 1
    print(f"comment_refs: no stale reference; {checked}")
    return 0


# ---- the self-test ----------------------------------------------------------------------------

# The fake tree: the stale references are the two of FAKE_STALE; the rest are good (or not comments).
# The stale names are put together, so that this file's code (read when the real tree is checked,
# e.g. a copy under another root) never has them.
GONE_FN, NOPE_FN = "gone" + "_fn", "nope" + "_fn"
FAKE = {
    "src/good.h": "/* good.h - a header that exists. */\nint good_fn(int x);\n",
    "src/a.c": (
        "/* a.c - the fake tree's one source; a.c good_fn() is below. */\n"
        '#include "good.h"\n'
        "#define MAKE(name) int sbx_made_##name(void) { return 1; }\n"
        "MAKE(one)\n"
        "/* It includes src/good.h and calls good_fn(x), sbx_made_one(); peer/peer.h is a peer's. */\n"
        'static const char *s = "http://example.com//x /* src/in_a_c_string.h */"; /* see ../README.md */\n'
        "int good_fn(int x) { return x; }\n"
        "/* The old helper lives in src/gone.h. */\n"
        "// Formerly " + GONE_FN + "() did it.\n"
        "#include <peer/peer.h>\n"
    ),
    "tests/run": (
        "#!/bin/sh\n"
        "# tests/run - writes report.json (see src/a.c); build*/ is git's to ignore.\n"
        'echo "a # src/in_a_sh_string.h" > "$OUT/report.json"  # a comment after code: good_fn()\n'
        "cat <<EOF\n# src/in_a_heredoc.h\nEOF\n"
    ),
    "tests/notes.md": "The header is `src/good.h`; see [the source](../src/a.c) and `build-x/log.json`.\n",
    "tests/seeds_corpus/seed.c": "/* corpora are not read: src/nope.h, " + NOPE_FN + "() */\n",
    "README.md": "The fake tree.\n",
    ".gitignore": "/build*\n",
}
FAKE_STALE = {("src/a.c", 8, "src/gone.h", "file"), ("src/a.c", 9, GONE_FN + "()", "function")}


def self_test():
    tmp = tempfile.mkdtemp(prefix="comment_refs.")
    try:
        for rel, body in FAKE.items():
            if "build-x" in body and not shutil.which("git"):
                body = body.replace(" and `build-x/log.json`", "")  # only git knows what it ignores
            os.makedirs(os.path.join(tmp, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(tmp, rel), "w", encoding="utf-8") as f:
                f.write(body)
        if shutil.which("git"):
            subprocess.run(["git", "init", "-q", tmp], check=False, capture_output=True)
        run = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", tmp, "--allow", os.devnull],
                             capture_output=True, text=True)
        got = set()
        for line in run.stdout.splitlines():
            m = re.match(r"(.+?):(\d+): names '(.+)', which does not exist \((file|function)\)$", line)
            if m:
                got.add((m.group(1), int(m.group(2)), m.group(3), m.group(4)))
        last = run.stdout.splitlines()[-1] if run.stdout.strip() else ""
        ok = got == FAKE_STALE and run.returncode == 1 and last.startswith("comment_refs: 2 stale")
        print(run.stdout, end="")
        if run.stderr:
            print(run.stderr, end="", file=sys.stderr)
        if not ok:
            print(f"self-test FAILED: want {sorted(FAKE_STALE)} and exit 1, "
                  f"got {sorted(got)} and exit {run.returncode}")
            return 1
        print("self-test passed: exactly the stale file and the stale function were reported")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(here)),
                    help="the repository (default: %(default)s)")
    ap.add_argument("--allow", default=os.path.join(here, ALLOW_NAME), help="the allowlist (default: %(default)s)")
    ap.add_argument("--self-test", action="store_true", help="check the checker on a small tree it makes")
    ap.add_argument("-v", "--verbose", action="store_true", help="also list, on stderr, what the fallbacks accepted")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not os.path.isdir(args.root):
        print(f"comment_refs: no folder {args.root}", file=sys.stderr)
        return 2
    return check(os.path.abspath(args.root), args.allow, args.verbose)


if __name__ == "__main__":
    sys.exit(main())
