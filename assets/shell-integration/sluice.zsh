# Sluice shell integration for zsh: marks each prompt, command line, command output and exit
# status (OSC 133), and reports the working directory (OSC 7), so that Ctrl+Shift+Z /
# Ctrl+Shift+X jump between prompts, Ctrl+Shift+G copies the last output and a new tab opens
# where you are. Without it Sluice works as before.
#
# Install: add to ~/.zshrc
#   [[ -n $SLUICE_PANE ]] && source /usr/share/sluice/shell-integration/sluice.zsh
# (or wherever assets/shell-integration/ is).

[[ -o interactive ]] || return 0
(( ${+__sluice_integrated} )) && return 0
typeset -g __sluice_integrated=1
autoload -Uz add-zsh-hook

__sluice_report_directory() {
    emulate -L zsh
    setopt extendedglob
    local LC_ALL=C
    # Every byte outside the unreserved set as %XX.
    print -rn -- $'\e]7;file://'"${HOST}${PWD//(#m)[^a-zA-Z0-9\/._~-]/%${(l:2::0:)$(([##16]#MATCH))}}"$'\a'
}

__sluice_precmd() {
    local exit_status=$?
    if (( ${+__sluice_running} )); then
        print -rn -- $'\e]133;D;'"$exit_status"$'\a'
        unset __sluice_running
    fi
    __sluice_report_directory
    # Around the prompt, again if a theme rebuilt it.
    if [[ $PS1 != *'133;A'* ]]; then
        PS1=$'%{\e]133;A\a%}'"$PS1"$'%{\e]133;B\a%}'
    fi
}

__sluice_preexec() {
    typeset -g __sluice_running=1
    print -rn -- $'\e]133;C\a'
}

add-zsh-hook precmd __sluice_precmd
add-zsh-hook preexec __sluice_preexec
