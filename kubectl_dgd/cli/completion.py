"""``kubectl dgd completion bash|zsh|fish``: completion for users who run ``kubectl-dgd`` itself.

kubectl 1.26+ completes ``kubectl dgd <TAB>`` through ``kubectl_complete-dgd`` on its own; these
scripts serve ``kubectl-dgd <TAB>``. Each one asks ``kubectl-dgd __complete WORDS...`` and reads
the same Cobra answer kubectl reads (``cli/complete.py``: candidates, then ``:directive``), so
both ways complete the same commands, flags and cluster values. Directive bits handled: 1 error,
2 no space, 4 no file completion, 8 file extensions to filter by, 16 directories only.
"""

from __future__ import annotations

import click

from kubectl_dgd.cli.deps import current_deps

# Without bash-completion's _get_comp_words_by_ref, bash hands the words split at "=" and ":"
# (COMP_WORDBREAKS); they are joined back so that `--order=a,b` reaches us as one word.
BASH = r"""# bash completion for kubectl-dgd; load it with: source <(kubectl-dgd completion bash)
__kubectl_dgd_words() {
    local i word
    __kubectl_dgd_args=()
    for ((i = 1; i <= COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if ((${#__kubectl_dgd_args[@]})) &&
            [[ $word == [=:] || ${__kubectl_dgd_args[-1]} == *[=:] ]]; then
            __kubectl_dgd_args[-1]+=$word
        else
            __kubectl_dgd_args+=("$word")
        fi
    done
}

_kubectl_dgd() {
    local cur words cword fragment out directive line
    local -a __kubectl_dgd_args lines
    if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n =: cur words cword
        __kubectl_dgd_args=("${words[@]:1:cword-1}" "$cur")
    else
        __kubectl_dgd_words
        cur=${__kubectl_dgd_args[-1]}
    fi
    fragment=${COMP_WORDS[COMP_CWORD]}
    [[ $fragment == [=:] ]] && fragment=""
    out=$("${COMP_WORDS[0]}" __complete "${__kubectl_dgd_args[@]}" 2>/dev/null) || return 0
    mapfile -t lines <<<"$out"
    directive=${lines[-1]#:}
    unset 'lines[-1]'
    [[ $directive =~ ^[0-9]+$ ]] || return 0
    COMPREPLY=()
    ((directive & 1)) && return 0
    ((directive & 2)) && compopt -o nospace 2>/dev/null
    [[ $cur == -*=* ]] && cur=${cur#*=}
    local typed=${cur%"$fragment"}  # what bash keeps of the word (before its last "=" or ":")
    if ((directive & 8)); then
        local extensions=" ${lines[*]} " path
        compopt -o filenames 2>/dev/null
        while IFS= read -r path; do
            if [[ -d $path || ($path == *.* && $extensions == *" ${path##*.} "*) ]]; then
                COMPREPLY+=("$path")
            fi
        done < <(compgen -f -- "$fragment")
        return 0
    fi
    if ((directive & 16)); then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -d -- "$fragment")
        return 0
    fi
    for line in "${lines[@]}"; do
        line=${line%%$'\t'*}
        [[ -n $line ]] && COMPREPLY+=("${line#"$typed"}")
    done
    if ((${#COMPREPLY[@]} == 0 && (directive & 4) == 0)); then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$fragment")
    fi
    return 0
}

complete -F _kubectl_dgd kubectl-dgd
"""

ZSH = r"""#compdef kubectl-dgd
# zsh completion for kubectl-dgd; load it with: source <(kubectl-dgd completion zsh)
# (after compinit), or save it as _kubectl-dgd in a directory of $fpath.
_kubectl_dgd() {
    local out directive line value
    local -a lines candidates
    out=$(${words[1]} __complete "${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
    lines=("${(@f)out}")
    directive=${lines[-1]#:}
    lines=("${(@)lines[1,-2]}")
    [[ $directive == <-> ]] || return 1
    (( directive & 1 )) && return 1
    [[ ${words[CURRENT]} == -*=* ]] && compset -P '*='
    if (( directive & 8 )); then
        _files -g "*.(${(j:|:)lines})"
        return
    fi
    if (( directive & 16 )); then
        _files -/
        return
    fi
    for line in "${lines[@]}"; do
        [[ -z $line ]] && continue
        value=${line%%$'\t'*}
        if [[ $line == *$'\t'* ]]; then
            candidates+=("${value//:/\\:}:${line#*$'\t'}")
        else
            candidates+=("${value//:/\\:}")
        fi
    done
    if (( ${#candidates} )); then
        if (( directive & 2 )); then
            _describe -t values 'values' candidates -S ''
        else
            _describe -t values 'values' candidates
        fi
    elif (( ! (directive & 4) )); then
        _files
    fi
}

if [[ $funcstack[1] == _kubectl_dgd || $funcstack[1] == _kubectl-dgd ]]; then
    _kubectl_dgd "$@"
else
    compdef _kubectl_dgd kubectl-dgd
fi
"""

FISH = r"""# fish completion for kubectl-dgd; load it with: kubectl-dgd completion fish | source
function __kubectl_dgd_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l program $tokens[1]
    set -e tokens[1]
    set -l out ($program __complete $tokens "$cur" 2>/dev/null)
    or return
    set -l directive (string replace -r '^:' '' -- $out[-1])
    set -e out[-1]
    string match -qr '^[0-9]+$' -- $directive; or return
    test (math "bitand($directive, 1)") -ne 0; and return
    set -l prefix ''
    if string match -q -- '-*=*' $cur
        set prefix (string replace -r '=.*' '=' -- $cur)
        set cur (string replace -r '^[^=]*=' '' -- $cur)
    end
    if test (math "bitand($directive, 8)") -ne 0
        set -l pattern '\.('(string join '|' -- $out)')$'
        for path in $cur*
            if test -d $path
                echo $prefix$path/
            else if string match -qr -- $pattern $path
                echo $prefix$path
            end
        end
        return
    end
    if test (math "bitand($directive, 16)") -ne 0
        __fish_complete_directories $cur
        return
    end
    for line in $out
        test -n "$line"; and echo $prefix$line
    end
    if test (count $out) -eq 0; and test (math "bitand($directive, 4)") -eq 0
        __fish_complete_path $cur
    end
end

complete -c kubectl-dgd -f -a '(__kubectl_dgd_complete)'
"""

SCRIPTS = {"bash": BASH, "zsh": ZSH, "fish": FISH}


@click.command()
@click.argument("shell", type=click.Choice(sorted(SCRIPTS)))
def completion(shell: str) -> None:
    """Print the completion script of SHELL, for running kubectl-dgd directly.

    kubectl 1.26+ needs none of this: `kubectl dgd <TAB>` works once kubectl_complete-dgd
    (installed with kubectl-dgd) is on PATH.

    \b
    Examples:
      source <(kubectl dgd completion bash)       # in ~/.bashrc
      source <(kubectl dgd completion zsh)        # in ~/.zshrc, after compinit
      kubectl dgd completion fish | source        # in ~/.config/fish/config.fish
    """
    current_deps().stdout.write(SCRIPTS[shell])
