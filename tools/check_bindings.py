#!/usr/bin/env python3
"""Checks the hand-written Rust and Julia declarations of libsddmm against include/sddmm.h.

The header is read through clang's AST (sddmm_header.py). From the bindings this reads:
  Rust:  `extern "C" { fn ...; }` blocks, `pub type` aliases, `pub const SDDMM_*`, `pub struct`s;
  Julia: every `@ccall lib.name(arg::T, ...)::R`, `const X = T` aliases, `const SDDMM_* = T(v)`,
         `struct`s. A plain `ccall(...)` is refused: only the macro form can be checked.
and reports, with file and line: functions missing or extra, argument counts, argument and return
types, enum aliases, enumerator values, and struct fields (names, types, order; `#[repr(C)]`).

Types must map exactly: int64_t <-> i64 / Int64, int32_t <-> i32 / Int32, uint32_t <-> u32 / UInt32,
an enum <-> its alias, c_int, i32 / Cint, Int32; void* <-> *mut c_void / Ptr{Cvoid};
const void* <-> *const c_void; const char* <-> *const c_char / Cstring, Ptr{Cchar}; T* <-> *mut T /
Ptr{T}, Ref{T}. Julia has no const pointers, so constness is checked for Rust only; Julia may also
point at an opaque struct with Ptr{Cvoid}.

Usage: check_bindings.py --header include/sddmm.h [--clang clang] [--rust DIR|FILE ...]
                         [--julia DIR|FILE ...]
Exit status: 0 all match, 1 mismatches (listed on stdout), 2 the checker could not run.
"""
import argparse
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sddmm_header import VOID, Header, Type, load_header, ptr  # noqa: E402

RUST_PRIMS = {
    "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "u8": "u8", "u16": "u16", "u32": "u32",
    "u64": "u64", "usize": "usize", "f32": "f32", "f64": "f64", "c_int": "c_int", "c_uint": "c_uint",
    "c_char": "char", "c_void": "void", "()": "void",
}
JULIA_PRIMS = {
    "Int8": "i8", "Int16": "i16", "Int32": "i32", "Int64": "i64", "UInt8": "u8", "UInt16": "u16",
    "UInt32": "u32", "UInt64": "u64", "Csize_t": "usize", "Float32": "f32", "Float64": "f64",
    "Cint": "c_int", "Cuint": "c_uint", "Cchar": "char", "Cvoid": "void", "Nothing": "void",
}


@dataclass
class Decl:
    """One declaration as a binding writes it: a type spelling (or a list of fields/parameters)."""
    file: str
    line: int
    spelling: str = ""
    params: List[Tuple[str, str]] = field(default_factory=list)  # functions: (name, type spelling)
    fields: List[Tuple[str, str]] = field(default_factory=list)  # structs
    value: Optional[int] = None  # constants
    repr_c: bool = True  # structs (Rust needs #[repr(C)])
    opaque: bool = False  # structs


@dataclass
class Binding:
    language: str
    files: List[str]
    functions: Dict[str, Decl] = field(default_factory=dict)
    constants: Dict[str, Decl] = field(default_factory=dict)
    aliases: Dict[str, Decl] = field(default_factory=dict)
    structs: Dict[str, Decl] = field(default_factory=dict)
    problems: List[str] = field(default_factory=list)

    def problem(self, where: Optional[Decl], message: str) -> None:
        location = f"{where.file}:{where.line}" if where else self.language
        self.problems.append(f"{location}: {message}")


# ---- source text helpers ------------------------------------------------------------------------

def strip_comments(text: str, line_comment: str, block_open: str, block_close: str,
                   blank_strings: bool = False) -> str:
    """Blanks out comments, and string contents if asked (Julia docstrings hold code examples),
    keeping newlines so that offsets and line numbers survive."""
    out, i, n = [], 0, len(text)
    blank = lambda chunk: re.sub(r"[^\n]", " ", chunk)  # noqa: E731
    while i < n:
        if text.startswith('"', i):
            quote = '"""' if text.startswith('"""', i) else '"'
            end = i + len(quote)
            while end < n and not text.startswith(quote, end):
                end += 2 if text[end] == "\\" else 1
            body = text[i + len(quote):end]
            out.append(quote + (blank(body) if blank_strings else body) + quote)
            i = end + len(quote)
        elif text.startswith(block_open, i):
            end = text.find(block_close, i + len(block_open))
            end = n if end < 0 else end + len(block_close)
            out.append(blank(text[i:end]))
            i = end
        elif text.startswith(line_comment, i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def matching_close(text: str, open_at: int) -> int:
    """Offset of the bracket closing the one at open_at (any of (), [], {})."""
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced bracket at offset {open_at}")


def split_top_level(text: str, separator: str = ",") -> List[str]:
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "([{<":
            depth += 1
        elif char in ")]}>" and not (char == ">" and i > 0 and text[i - 1] == "-"):
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def source_files(paths: List[str], extension: str) -> List[str]:
    found = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in sorted(os.walk(path)):
                found += [os.path.join(root, n) for n in sorted(names) if n.endswith(extension)]
        else:
            found.append(path)
    return found


def parse_int(text: str) -> Optional[int]:
    match = re.fullmatch(r"\s*(-?)\s*(0x[0-9a-fA-F_]+|\d[\d_]*)(?:[iu](?:8|16|32|64|size))?\s*", text)
    if not match:
        return None
    return int(match.group(1) + match.group(2).replace("_", ""), 0)


# ---- Rust ---------------------------------------------------------------------------------------

def read_rust(binding: Binding, path: str) -> None:
    text = strip_comments(open(path, encoding="utf-8").read(), "//", "/*", "*/")
    at = lambda offset: Decl(path, line_of(text, offset))  # noqa: E731
    for match in re.finditer(r"\bpub\s+type\s+(\w+)\s*=\s*([^;]+);", text):
        binding.aliases[match.group(1)] = Decl(path, line_of(text, match.start()), spelling=match.group(2).strip())
    for match in re.finditer(r"\bpub\s+const\s+(SDDMM_\w+)\s*:\s*([^=]+?)\s*=\s*([^;]+);", text):
        value = parse_int(match.group(3))
        if value is None:
            binding.problem(at(match.start()), f"constant {match.group(1)}: cannot read '{match.group(3).strip()}'")
        binding.constants[match.group(1)] = Decl(path, line_of(text, match.start()), spelling=match.group(2).strip(),
                                                 value=value)
    for match in re.finditer(r"((?:#\[[^\]]*\]\s*)*)pub\s+struct\s+(\w+)\s*\{", text):
        body = text[match.end():matching_close(text, match.end() - 1)]
        fields = []
        for item in split_top_level(body):
            field_match = re.fullmatch(r"(?:pub(?:\([^)]*\))?\s+)?(\w+)\s*:\s*(.+)", item, re.S)
            if field_match:
                fields.append((field_match.group(1), " ".join(field_match.group(2).split())))
        binding.structs[match.group(2)] = Decl(
            path, line_of(text, match.start(2)), fields=fields,
            repr_c=bool(re.search(r"#\[repr\(\s*C\b", match.group(1))),
            opaque=all(name.startswith("_") for name, _ in fields))
    for block in re.finditer(r"(?:\bunsafe\s+)?\bextern\s+\"C\"\s*\{", text):
        close = matching_close(text, block.end() - 1)
        offset = block.end()
        for item in text[block.end():close].split(";"):
            read_rust_fn(binding, at(offset + len(item) - len(item.lstrip())), item.strip())
            offset += len(item) + 1


def read_rust_fn(binding: Binding, where: Decl, item: str) -> None:
    item = re.sub(r"^(?:#\[[^\]]*\]\s*)*", "", item)
    if not item:
        return
    match = re.fullmatch(r"(?:pub(?:\([^)]*\))?\s+)?(?:(?:safe|unsafe)\s+)?fn\s+(\w+)\s*\((.*)\)\s*(?:->\s*(.+))?",
                         item, re.S)
    if not match:
        binding.problem(where, f"cannot read extern item '{' '.join(item.split())}'")
        return
    params = []
    for arg in split_top_level(match.group(2)):
        arg_match = re.fullmatch(r"(?:mut\s+)?(\w+)\s*:\s*(.+)", arg, re.S)
        if not arg_match:
            binding.problem(where, f"{match.group(1)}: cannot read argument '{arg}'")
            continue
        params.append((arg_match.group(1), " ".join(arg_match.group(2).split())))
    ret = " ".join((match.group(3) or "()").split())
    binding.functions[match.group(1)] = Decl(where.file, where.line, spelling=ret, params=params)


def rust_type(binding: Binding, header: Header, spelling: str) -> Type:
    spelling = spelling.strip()
    for prefix, const in (("*mut ", False), ("*const ", True)):
        if spelling.startswith(prefix):
            return ptr(rust_type(binding, header, spelling[len(prefix):]), const)
    name = spelling.split("::")[-1].strip()
    return named_type(binding, header, name, RUST_PRIMS, lambda s: rust_type(binding, header, s))


# ---- Julia --------------------------------------------------------------------------------------

JULIA_TYPE = r"[A-Za-z_]\w*(?:\{[^\n=]*\})?"


def read_julia(binding: Binding, path: str) -> None:
    text = strip_comments(open(path, encoding="utf-8").read(), "#", "#=", "=#", blank_strings=True)
    at = lambda offset: Decl(path, line_of(text, offset))  # noqa: E731
    for match in re.finditer(r"^[ \t]*const[ \t]+(\w+)[ \t]*=[ \t]*([^\n]+?)[ \t]*$", text, re.M):
        name, rhs, where = match.group(1), match.group(2), at(match.start())
        typed = re.fullmatch(r"(" + JULIA_TYPE + r")\((.+)\)", rhs)
        if typed and parse_int(typed.group(2)) is not None:
            binding.constants[name] = Decl(path, where.line, spelling=typed.group(1), value=parse_int(typed.group(2)))
        elif parse_int(rhs) is not None:
            binding.constants[name] = Decl(path, where.line, spelling="Int64", value=parse_int(rhs))
        elif re.fullmatch(JULIA_TYPE, rhs):
            binding.aliases[name] = Decl(path, where.line, spelling=rhs)
        elif name.startswith("SDDMM_"):
            binding.problem(where, f"constant {name}: cannot read '{rhs}' as T(integer)")
    for match in re.finditer(r"^[ \t]*(mutable[ \t]+)?struct[ \t]+(\w+)\b([^\n]*)$", text, re.M):
        where = at(match.start())
        if re.fullmatch(r"\s*end\s*", match.group(3)):
            binding.structs[match.group(2)] = Decl(path, where.line, opaque=True)
            continue
        body = text[match.end():]
        body = body[:re.search(r"^[ \t]*end\b", body, re.M).start()]
        fields = re.findall(r"^[ \t]*(\w+)::(" + JULIA_TYPE + r")[ \t]*$", body, re.M)
        binding.structs[match.group(2)] = Decl(path, where.line, fields=fields, opaque=not fields)
    for match in re.finditer(r"(?<![@\w.])ccall\s*\(", text):
        binding.problem(at(match.start()), "plain ccall(...) cannot be checked: use @ccall")
    for match in re.finditer(r"@ccall\b", text):
        read_julia_ccall(binding, text, at(match.start()), match.end())


def read_julia_ccall(binding: Binding, text: str, where: Decl, start: int) -> None:
    """@ccall <library expression>.<name>(<arg>::<T>, ...)::<R>. The name is the identifier before
    the first '(' that follows a '.': brackets before that belong to the library expression."""
    i = start
    while True:
        if i >= len(text) or text[i] in "\n:":
            binding.problem(where, "cannot read @ccall: expected <library>.<name>(...)")
            return
        if text[i] in "([{":
            qualified = re.search(r"\.\s*(\w+)\s*$", text[start:i])
            if text[i] == "(" and qualified:
                name, open_at = qualified.group(1), i
                break
            i = matching_close(text, i)
        i += 1
    close = matching_close(text, open_at)
    params = []
    for arg in split_top_level(text[open_at + 1:close].split(";")[0]):
        if "::" not in arg:
            binding.problem(where, f"{name}: argument '{arg}' has no ::Type")
            continue
        value, arg_type = arg.rsplit("::", 1)
        params.append((value.strip(), arg_type.strip()))
    ret = re.compile(r"\s*::\s*(" + JULIA_TYPE + r")").match(text, close + 1)
    if not ret:
        binding.problem(where, f"{name}: @ccall without ::ReturnType")
        return
    decl = Decl(where.file, where.line, spelling=ret.group(1).strip(), params=params)
    earlier = binding.functions.get(name)
    if earlier and (earlier.spelling, [t for _, t in earlier.params]) != (decl.spelling, [t for _, t in params]):
        binding.problem(where, f"{name}: @ccall differs from the one at {earlier.file}:{earlier.line}")
    binding.functions.setdefault(name, decl)


def julia_type(binding: Binding, header: Header, spelling: str) -> Type:
    spelling = spelling.strip()
    wrapped = re.fullmatch(r"(Ptr|Ref)\{(.+)\}", spelling)
    if wrapped:
        return ptr(julia_type(binding, header, wrapped.group(2)), None)
    if spelling == "Cstring":
        return ptr(Type("prim", "char"), None)
    return named_type(binding, header, spelling, JULIA_PRIMS, lambda s: julia_type(binding, header, s))


# ---- shared -------------------------------------------------------------------------------------

def named_type(binding: Binding, header: Header, name: str, prims: Dict[str, str],
               parse: Callable[[str], Type]) -> Type:
    """A primitive, an alias (an alias named after a header enum and resolving to a 32-bit int *is*
    that enum), or a struct the binding defines."""
    if name in prims:
        return Type("prim", prims[name])
    if name in binding.aliases:
        resolved = parse(binding.aliases[name].spelling)
        if name in header.enums and resolved.kind == "prim" and resolved.name in ("c_int", "i32"):
            return Type("enum", name)
        return resolved
    if name in binding.structs:
        return Type("struct", name)
    raise ValueError(f"unknown type '{name}'")


def compatible(header: Header, c: Type, b: Type) -> bool:
    if c.kind == "ptr":
        if b.kind != "ptr" or (b.const is not None and b.const != c.const):
            return False
        c_struct = header.structs.get(c.pointee.name) if c.pointee.kind == "struct" else None
        if b.const is None and b.pointee == VOID and c_struct is not None and c_struct.opaque:
            return True  # Julia's Ptr{Cvoid} for an opaque handle
        return compatible(header, c.pointee, b.pointee)
    if c.kind == "enum":
        return (b.kind == "enum" and b.name == c.name) or (b.kind == "prim" and b.name in ("c_int", "i32"))
    return b.kind == c.kind and b.name == c.name


def check(header: Header, binding: Binding, to_type: Callable[[str], Type]) -> None:
    def resolve(decl: Decl, spelling: str, what: str) -> Optional[Type]:
        try:
            return to_type(spelling)
        except ValueError as error:
            binding.problem(decl, f"{what}: {error}")
            return None

    def compare(decl: Decl, c: Type, c_spelling: str, spelling: str, what: str) -> None:
        b = resolve(decl, spelling, what)
        if b is not None and not compatible(header, c, b):
            binding.problem(decl, f"{what}: header has {c_spelling} ({c}), binding has {spelling} ({b})")

    for name in sorted(set(header.functions) - set(binding.functions)):
        binding.problem(None, f"missing function {name} (declared in the header)")
    for name in sorted(set(binding.functions) - set(header.functions)):
        binding.problem(binding.functions[name], f"extra function {name}: not in the header")
    for name in sorted(set(header.functions) & set(binding.functions)):
        c_fn, decl = header.functions[name], binding.functions[name]
        if len(c_fn.params) != len(decl.params):
            binding.problem(decl, f"{name}: header has {len(c_fn.params)} arguments, binding has {len(decl.params)}")
            continue
        compare(decl, c_fn.ret, c_fn.ret_spelling, decl.spelling, f"{name}: return type")
        pairs = zip(c_fn.params, decl.params)
        for index, ((c_name, c_type, c_spelling), (b_name, b_spelling)) in enumerate(pairs):
            compare(decl, c_type, c_spelling, b_spelling, f"{name}: argument {index + 1} ({c_name}, binding {b_name})")

    for enum, values in header.enums.items():
        if enum not in binding.aliases:
            binding.problem(None, f"missing alias for enum {enum}")
        for constant, value in values.items():
            decl = binding.constants.get(constant)
            if decl is None:
                binding.problem(None, f"missing constant {constant} = {value} (enum {enum})")
                continue
            if decl.value is not None and decl.value != value:
                binding.problem(decl, f"constant {constant}: header value {value}, binding value {decl.value}")
            compare(decl, Type("enum", enum), enum, decl.spelling, f"constant {constant}")
    enumerators = {c for values in header.enums.values() for c in values}
    for name in sorted(set(binding.constants) - enumerators):
        if name.startswith("SDDMM_"):
            binding.problem(binding.constants[name], f"extra constant {name}: not an enumerator of the header")

    for name in sorted(set(binding.aliases) & set(header.typedefs)):
        # Resolving the alias by name turns an enum alias of a 32-bit int into that enum.
        compare(binding.aliases[name], header.typedefs[name], name, name, f"alias {name}")

    for name, c_struct in header.structs.items():
        decl = binding.structs.get(name)
        if decl is None:
            if not c_struct.opaque:
                binding.problem(None, f"missing struct {name}")
            continue
        if c_struct.opaque:
            if not decl.opaque:
                binding.problem(decl, f"struct {name} is opaque in the header; the binding gives it fields")
            continue
        if not decl.repr_c:
            binding.problem(decl, f"struct {name}: needs #[repr(C)]")
        c_names = [f[0] for f in c_struct.fields]
        b_names = [f[0] for f in decl.fields]
        if c_names != b_names:
            binding.problem(decl, f"struct {name}: header fields {c_names}, binding fields {b_names}")
            continue
        for (field_name, c_type, c_spelling), (_, spelling) in zip(c_struct.fields, decl.fields):
            compare(decl, c_type, c_spelling, spelling, f"struct {name}: field {field_name}")


def read_binding(language: str, paths: List[str], header: Header) -> Binding:
    readers = {"rust": (".rs", read_rust, rust_type), "julia": (".jl", read_julia, julia_type)}
    extension, reader, parse = readers[language]
    binding = Binding(language, source_files(paths, extension))
    for path in binding.files:
        reader(binding, path)
    if not binding.functions:
        binding.problem(None, f"no function declarations found in {', '.join(binding.files) or 'nothing'}")
    check(header, binding, lambda spelling: parse(binding, header, spelling))
    return binding


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--header", required=True)
    parser.add_argument("--clang", default="clang")
    parser.add_argument("--rust", nargs="*", default=[])
    parser.add_argument("--julia", nargs="*", default=[])
    args = parser.parse_args()
    if not args.rust and not args.julia:
        parser.error("nothing to check: give --rust and/or --julia")
    try:
        header = load_header(args.header, args.clang)
    except (OSError, RuntimeError, ValueError) as error:
        print(f"check_bindings: cannot read the header: {error}", file=sys.stderr)
        return 2
    failed = False
    for language, paths in (("rust", args.rust), ("julia", args.julia)):
        if not paths:
            continue
        binding = read_binding(language, paths, header)
        for problem in binding.problems:
            print(problem)
        failed = failed or bool(binding.problems)
        status = f"{len(binding.problems)} problem(s)" if binding.problems else "ok"
        print(f"{language}: {status}: {len(binding.functions)} functions, {len(binding.constants)} constants, "
              f"{len(binding.structs)} structs read from {len(binding.files)} file(s); "
              f"header has {len(header.functions)} functions, {sum(map(len, header.enums.values()))} enumerators")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
