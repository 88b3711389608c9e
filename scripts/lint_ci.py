#!/usr/bin/env python3
"""Cheap structural lint of the CI files that our CI cannot run (GitHub workflows, the
ClusterFuzzLite project and the container recipes); scripts/lint-ci.sh runs it after yamllint.

  lint_ci.py ROOT FILE...   each FILE: *.yml/*.yaml (workflow or project.yaml) or a Dockerfile

Workflows: `on` and `jobs`; every job has `runs-on` and `steps`; every step has exactly one of
`uses` / `run`; a `uses` names owner/repo@ref. project.yaml: `language` among ClusterFuzzLite's.
Dockerfiles: known instructions only, a FROM before anything but ARG, `apt-get install` with
-y and --no-install-recommends, each apt-get update's RUN also clears /var/lib/apt/lists, COPY
sources exist in the build context (ROOT), a JSON-form CMD/ENTRYPOINT is valid JSON.
Prints one line per problem ("FILE:LINE: message"); exits 1 if any, 0 if none, 2 on misuse.
"""
import json
import os
import re
import sys

import yaml

INSTRUCTIONS = {"FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
                "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK",
                "SHELL", "MAINTAINER"}
CFLITE_LANGUAGES = {"c", "c++", "go", "rust", "python", "jvm", "swift", "javascript", "ruby"}


def lint_workflow(path, doc, out):
    if not isinstance(doc, dict):
        out.append(f"{path}:1: not a mapping")
        return
    # YAML 1.1 reads a bare `on` key as boolean true.
    if "on" not in doc and True not in doc:
        out.append(f"{path}:1: no 'on' (triggers)")
    jobs = doc.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        out.append(f"{path}:1: no 'jobs'")
        return
    for name, job in jobs.items():
        if not isinstance(job, dict):
            out.append(f"{path}: job '{name}' is not a mapping")
            continue
        if "runs-on" not in job:
            out.append(f"{path}: job '{name}' has no 'runs-on'")
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            out.append(f"{path}: job '{name}' has no 'steps'")
            continue
        for i, step in enumerate(steps):
            keys = {"uses", "run"} & set(step or {})
            if len(keys) != 1:
                out.append(f"{path}: job '{name}' step {i + 1} needs exactly one of 'uses'/'run'")
            elif "uses" in step and not re.match(r"^[\w.-]+/[\w./-]+@[\w.-]+$", str(step["uses"])):
                out.append(f"{path}: job '{name}' step {i + 1}: uses '{step['uses']}' is not owner/repo@ref")


def lint_yaml(path, out):
    try:
        with open(path) as f:
            doc = yaml.safe_load(f)
    except yaml.YAMLError as e:
        out.append(f"{path}: YAML error: {e}")
        return
    if os.path.basename(path) == "project.yaml":
        lang = (doc or {}).get("language")
        if lang not in CFLITE_LANGUAGES:
            out.append(f"{path}:1: language '{lang}' is not one of {sorted(CFLITE_LANGUAGES)}")
    else:
        lint_workflow(path, doc, out)


def dockerfile_instructions(path):
    """(line number, keyword, argument text) with continuation lines joined."""
    items, buf, start = [], "", 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            s = line.rstrip("\n")
            if not buf and (not s.strip() or s.lstrip().startswith("#")):
                continue
            if not buf:
                start = n
            if s.rstrip().endswith("\\"):
                buf += s.rstrip()[:-1] + " "
                continue
            buf += s
            word, _, rest = buf.strip().partition(" ")
            items.append((start, word, rest.strip()))
            buf = ""
    return items


def lint_dockerfile(root, path, out):
    seen_from = False
    for n, word, rest in dockerfile_instructions(path):
        where = f"{path}:{n}"
        if word.upper() not in INSTRUCTIONS:
            out.append(f"{where}: unknown instruction '{word}'")
            continue
        word = word.upper()
        if word == "FROM":
            seen_from = True
        elif word != "ARG" and not seen_from:
            out.append(f"{where}: {word} before FROM")
        if word == "RUN":
            if "apt-get install" in rest and (" -y" not in rest or "--no-install-recommends" not in rest):
                out.append(f"{where}: apt-get install without -y and --no-install-recommends")
            if "apt-get update" in rest and "rm -rf /var/lib/apt/lists" not in rest:
                out.append(f"{where}: apt-get update without clearing /var/lib/apt/lists in the same RUN")
        if word in ("COPY", "ADD"):
            args = [a for a in rest.split() if not a.startswith("--")]
            for src in args[:-1]:
                if "$" in src:
                    continue
                if not os.path.exists(os.path.join(root, src)):
                    out.append(f"{where}: {word} source '{src}' not in the build context {root}")
        if word in ("CMD", "ENTRYPOINT") and rest.startswith("["):
            try:
                json.loads(rest)
            except ValueError as e:
                out.append(f"{where}: {word} is not valid JSON: {e}")
    if not seen_from:
        out.append(f"{path}:1: no FROM")


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, problems = argv[1], []
    for path in argv[2:]:
        if not os.path.isfile(path):
            print(f"lint_ci: {path}: no such file", file=sys.stderr)
            return 2
        if path.endswith((".yml", ".yaml")):
            lint_yaml(path, problems)
        else:
            lint_dockerfile(root, path, problems)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
