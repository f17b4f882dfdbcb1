"""The public header as data: functions, enums, structs and typedefs read from clang's JSON AST.

clang, not a regular expression, parses the header, so what the checks compare against is what a C
compiler sees. Shared by check_bindings.py (bindings vs header) and check_exports.py (library
symbols vs header).
"""
import json
import os
import subprocess
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple


@dataclass(frozen=True)
class Type:
    """A C ABI type. kind: 'prim' (name: i64, i32, u32, c_int, char, void, ...), 'enum' (name: the
    header's typedef name), 'struct' (name: the struct tag), or 'ptr' (pointee; const: whether the
    pointee is const, None where the language cannot say, as in Julia)."""
    kind: str
    name: str = ""
    pointee: Optional["Type"] = None
    const: Optional[bool] = False

    def __str__(self) -> str:
        if self.kind == "ptr":
            qualifier = "const " if self.const else ""  # None (Julia) cannot say: shown as non-const
            return f"{qualifier}{self.pointee}*"
        return f"enum {self.name}" if self.kind == "enum" else self.name


def ptr(pointee: Type, const: Optional[bool]) -> Type:
    return Type("ptr", pointee=pointee, const=const)


VOID = Type("prim", "void")


@dataclass
class Function:
    name: str
    ret: Type
    ret_spelling: str
    params: List[Tuple[str, Type, str]]  # (name, type, spelling)


@dataclass
class Struct:
    name: str
    opaque: bool
    fields: List[Tuple[str, Type, str]] = field(default_factory=list)


@dataclass
class Header:
    functions: Dict[str, Function]
    enums: Dict[str, Dict[str, int]]  # typedef name -> {enumerator: value}
    structs: Dict[str, Struct]
    typedefs: Dict[str, Type]


# Fixed-width and plain C types a binding may meet, by their spelling in the header.
C_PRIMS = {
    "int8_t": "i8", "int16_t": "i16", "int32_t": "i32", "int64_t": "i64",
    "uint8_t": "u8", "uint16_t": "u16", "uint32_t": "u32", "uint64_t": "u64",
    "int": "c_int", "unsigned int": "c_uint", "char": "char", "void": "void",
    "float": "f32", "double": "f64", "size_t": "usize",
}


class CTypeParser:
    """Parses clang's qualType spellings (`const sddmm_dense_t *`, `sddmm_matrix_t *`) into Types."""

    def __init__(self) -> None:
        self.typedef_spelling: Dict[str, str] = {}
        self.enum_tag_to_typedef: Dict[str, str] = {}

    def parse(self, spelling: str) -> Type:
        return self._parse(spelling.replace("*", " * ").split())[0]

    def _parse(self, tokens: List[str]) -> Tuple[Type, bool]:
        """(type, whether it is const-qualified at its top level)."""
        stars = [i for i, token in enumerate(tokens) if token == "*"]
        if stars:
            # Tokens after the last '*' qualify the pointer itself; those before it spell the
            # pointee, whose own top-level const is what a binding's *const / *mut must match.
            last = stars[-1]
            pointee, pointee_const = self._parse(tokens[:last])
            return ptr(pointee, pointee_const), "const" in tokens[last + 1:]
        const = "const" in tokens
        name = " ".join(t for t in tokens if t not in ("const", "volatile"))
        if name in C_PRIMS:
            return Type("prim", C_PRIMS[name]), const
        if name.startswith("enum "):
            tag = name[len("enum "):]
            return Type("enum", self.enum_tag_to_typedef.get(tag, tag)), const
        if name.startswith("struct "):
            return Type("struct", name[len("struct "):]), const
        if name in self.typedef_spelling:
            resolved, resolved_const = self._parse(self.typedef_spelling[name].replace("*", " * ").split())
            return resolved, const or resolved_const
        raise ValueError(f"unsupported C type '{' '.join(tokens)}'")


def _walk_locations(value, state: Dict[str, str]) -> None:
    """Replays clang's JSON location stream: a 'file' key appears only where the file changes from
    the previous location printed, in document order ('includedFrom' names a different file)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "includedFrom":
                continue
            if key == "file" and isinstance(item, str):
                state["file"] = item
            else:
                _walk_locations(item, state)
    elif isinstance(value, list):
        for item in value:
            _walk_locations(item, state)


def header_decls(ast: dict, header_path: str) -> List[dict]:
    """The top-level declarations whose location is in the header itself (not in stdint.h)."""
    wanted = os.path.realpath(header_path)
    state = {"file": ""}
    decls = []
    for node in ast.get("inner", []):
        _walk_locations(node.get("loc", {}), state)
        in_header = bool(state["file"]) and os.path.realpath(state["file"]) == wanted
        _walk_locations({k: v for k, v in node.items() if k != "loc"}, state)
        if in_header and not node.get("isImplicit"):
            decls.append(node)
    return decls


def _enum_values(node: dict) -> Dict[str, int]:
    values, previous = {}, -1
    for constant in node.get("inner", []):
        if constant.get("kind") != "EnumConstantDecl":
            continue
        explicit = [c for c in constant.get("inner", []) if "value" in c]
        previous = int(explicit[0]["value"]) if explicit else previous + 1
        values[constant["name"]] = previous
    return values


def _return_spelling(function_type: str) -> str:
    """'const char *(sddmm_status_t)' -> 'const char *': everything before the parameter list."""
    depth = 0
    for i in range(len(function_type) - 1, -1, -1):
        char = function_type[i]
        depth += char == ")"
        depth -= char == "("
        if depth == 0:
            return function_type[:i].strip()
    raise ValueError(f"cannot split function type '{function_type}'")


def load_header(header_path: str, clang: str = "clang") -> Header:
    command = [clang, "-Xclang", "-ast-dump=json", "-fsyntax-only", "-x", "c", "-std=c99", header_path]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stderr}")
    decls = header_decls(json.loads(result.stdout), header_path)

    parser = CTypeParser()
    enums_by_tag: Dict[str, Dict[str, int]] = {}
    records: List[dict] = []
    for node in decls:
        kind = node.get("kind")
        if kind == "TypedefDecl":
            spelling = node["type"]["qualType"]
            parser.typedef_spelling[node["name"]] = spelling
            if spelling.startswith("enum "):
                parser.enum_tag_to_typedef.setdefault(spelling[len("enum "):], node["name"])
        elif kind == "EnumDecl":
            enums_by_tag[node.get("name", "")] = _enum_values(node)
        elif kind == "RecordDecl":
            records.append(node)

    structs: Dict[str, Struct] = {}
    for node in records:
        fields = [(f["name"], parser.parse(f["type"]["qualType"]), f["type"]["qualType"])
                  for f in node.get("inner", []) if f.get("kind") == "FieldDecl"]
        complete = bool(node.get("completeDefinition"))
        if node["name"] not in structs or complete:
            structs[node["name"]] = Struct(node["name"], opaque=not complete, fields=fields)

    functions: Dict[str, Function] = {}
    for node in decls:
        if node.get("kind") != "FunctionDecl":
            continue
        ret_spelling = _return_spelling(node["type"]["qualType"])
        params = [(p.get("name", ""), parser.parse(p["type"]["qualType"]), p["type"]["qualType"])
                  for p in node.get("inner", []) if p.get("kind") == "ParmVarDecl"]
        functions[node["name"]] = Function(node["name"], parser.parse(ret_spelling), ret_spelling, params)

    enums = {parser.enum_tag_to_typedef.get(tag, tag): values for tag, values in enums_by_tag.items()}
    typedefs = {name: parser.parse(spelling) for name, spelling in parser.typedef_spelling.items()}
    return Header(functions, enums, structs, typedefs)
