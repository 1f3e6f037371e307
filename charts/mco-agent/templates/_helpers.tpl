{{/* Names and labels. */}}

{{- define "mco-agent.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "mco-agent.selector" -}}
app.kubernetes.io/name: mco-agent
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "mco-agent.labels" -}}
{{ include "mco-agent.selector" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* The Secret holding the agent's credential. */}}
{{- define "mco-agent.credentialSecret" -}}
{{- default (printf "%s-credential" (include "mco-agent.fullname" .)) .Values.credential.existingSecret -}}
{{- end -}}
