{{- define "tests30.annotations" -}}
helm.sh/hook: {{ .t.event | default "test" }}
{{- with .t.weight }}
helm.sh/hook-weight: {{ . | quote }}
{{- end }}
{{- if hasKey .t "parallel" }}
helm.sh/hook-parallel: {{ .t.parallel | toString | quote }}
{{- end }}
{{- with .t.dependsOn }}
helm.sh/depends-on: '[{{ range $i, $d := . }}{{ if $i }}, {{ end }}"{{ $d | replace "/" (printf "/%s-" $.root.Release.Name) }}"{{ end }}]'
{{- end }}
helm.sh/hook-delete-policy: before-hook-creation{{ if eq .t.kind "Job" }},hook-succeeded{{ end }}
{{- end -}}
{{- define "tests30.container" -}}
- name: test
  image: {{ .root.Values.image }}
  command: ["sh", "-c", "echo running {{ .t.name }}; wget -qO- http://{{ .root.Release.Name }}-tests30:8080/{{ .t.name }}"]
{{- end -}}
