# Sluice shell integration for bash (4.4 or later): marks each prompt, command line, command
# output and exit status (OSC 133), and reports the working directory (OSC 7), so that
# Ctrl+Shift+Z / Ctrl+Shift+X jump between prompts, Ctrl+Shift+G copies the last output and a
# new tab opens where you are. Without it Sluice works as before.
#
# Install: add to ~/.bashrc
#   [ -n "$SLUICE_PANE" ] && . /usr/share/sluice/shell-integration/sluice.bash
# (or wherever assets/shell-integration/ is).

[[ $- == *i* ]] || return 0
[[ -n ${__sluice_integrated-} ]] && return 0
__sluice_integrated=1

# The directory as a file:// URL; bytes outside the unreserved set percent-encoded.
__sluice_report_directory() {
    local LC_ALL=C path=$PWD out= c i
    for ((i = 0; i < ${#path}; i++)); do
        c=${path:i:1}
        case $c in
            [a-zA-Z0-9/._~-]) out+=$c ;;
            *) printf -v c '%%%02X' "'$c"; out+=$c ;;
        esac
    done
    printf '\e]7;file://%s%s\a' "${HOSTNAME-}" "$out"
}

# Runs first in PROMPT_COMMAND, so $? is still the command's status. No D before the first
# prompt: nothing has run yet.
__sluice_prompt_command() {
    local status=$?
    if [[ -n ${__sluice_prompted-} ]]; then
        printf '\e]133;D;%s\a' "$status"
    fi
    __sluice_prompted=1
    __sluice_report_directory
    # A prompt theme may have rebuilt PS1 since: the marks go back around it.
    if [[ $PS1 != *'133;A'* ]]; then
        PS1='\[\e]133;A\a\]'"$PS1"'\[\e]133;B\a\]'
    fi
    return "$status"
}

if [[ $(declare -p PROMPT_COMMAND 2>/dev/null) == "declare -a"* ]]; then
    PROMPT_COMMAND=(__sluice_prompt_command "${PROMPT_COMMAND[@]}")
else
    PROMPT_COMMAND="__sluice_prompt_command${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
fi
# PS0 is printed after a command line is read, before it runs: where its output begins.
PS0='\e]133;C\a'"${PS0-}"
