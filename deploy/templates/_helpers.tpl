{{- define "vfps.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "vfps.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "vfps.headlessName" -}}
{{- printf "%s-headless" (include "vfps.fullname" . | trunc 54 | trimSuffix "-") }}
{{- end }}

{{- define "vfps.membersName" -}}
{{- printf "%s-members" (include "vfps.fullname" . | trunc 55 | trimSuffix "-") }}
{{- end }}

{{- define "vfps.selectorLabels" -}}
app.kubernetes.io/name: {{ include "vfps.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "vfps.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "vfps.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "vfps.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The Secret with the connection string: the user's, or the one this chart makes. */}}
{{- define "vfps.databaseSecretName" -}}
{{- if .Values.database.existingSecret }}
{{- .Values.database.existingSecret }}
{{- else if .Values.database.connectionString }}
{{- printf "%s-database" (include "vfps.fullname" .) }}
{{- else }}
{{- fail "vfps needs a database: set database.existingSecret (a Secret holding the connection string) or database.connectionString" }}
{{- end }}
{{- end }}

{{- define "vfps.databaseSecretKey" -}}
{{- if .Values.database.existingSecret }}
{{- .Values.database.existingSecretKey }}
{{- else }}
{{- print "connection-string" }}
{{- end }}
{{- end }}

{{/* The environment shared by the pods and the migrations Job: the database and the JVM. */}}
{{- define "vfps.commonEnv" -}}
- name: ConnectionStrings__PostgreSQL
  valueFrom:
    secretKeyRef:
      name: {{ include "vfps.databaseSecretName" . }}
      key: {{ include "vfps.databaseSecretKey" . }}
{{- with .Values.database.passwordSecret }}
{{- if .name }}
- name: PGPASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .name }}
      key: {{ .key }}
{{- end }}
{{- end }}
- name: JAVA_OPTS
  value: {{ .Values.javaOpts | quote }}
- name: MALLOC_ARENA_MAX
  value: "2"
{{- end }}

{{/*
The `config` tree as environment variables: nested keys joined with "__", list entries by index,
null values left out. Numbers are written without an exponent (YAML numbers reach templates as
floats).
*/}}
{{- define "vfps.configEnv" -}}
{{- $name := .name }}
{{- $value := .value }}
{{- if kindIs "map" $value }}
{{- range $key := keys $value | sortAlpha }}
{{- include "vfps.configEnv" (dict "name" (ternary $key (printf "%s__%s" $name $key) (eq $name "")) "value" (get $value $key)) }}
{{- end }}
{{- else if kindIs "slice" $value }}
{{- range $index, $item := $value }}
{{- include "vfps.configEnv" (dict "name" (printf "%s__%d" $name $index) "value" $item) }}
{{- end }}
{{- else if not (kindIs "invalid" $value) }}
- name: {{ $name }}
  value: {{ include "vfps.scalar" $value | quote }}
{{- end }}
{{- end }}

{{- define "vfps.scalar" -}}
{{- if and (kindIs "float64" .) (eq (floor .) .) }}
{{- printf "%.0f" . }}
{{- else }}
{{- toString . }}
{{- end }}
{{- end }}

{{/* Settings the chart owns elsewhere in values must not come in through `config` too. */}}
{{- define "vfps.checkConfig" -}}
{{- $config := .Values.config | default dict }}
{{- range $key := keys $config }}
{{- $lower := lower $key }}
{{- if has $lower (list "connectionstrings" "cluster" "metricsport") }}
{{- fail (printf "config.%s: set it through database, cluster or ports instead" $key) }}
{{- end }}
{{- if eq $lower "kestrel" }}
{{- fail (printf "config.%s: set TLS through tls instead" $key) }}
{{- end }}
{{- if has $lower (list "voprf" "voprfserver") }}
{{- fail (printf "config.%s: set VOPRF through voprf.client and voprf.server instead" $key) }}
{{- end }}
{{- if and (has $lower (list "http" "grpc")) (kindIs "map" (get $config $key)) }}
{{- range $inner := keys (get $config $key) }}
{{- if eq (lower $inner) "port" }}
{{- fail (printf "config.%s.%s: set it through ports instead" $key $inner) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- range $fromSecret := list (list "authorization" "clientsecret" "authorization.clientSecret (a Secret)") (list "sealing" "keyfile" "sealing.existingSecret (a Secret)") (list "audit" "signingkeyfile" "audit.signingKey.existingSecret (a Secret)") }}
{{- range $key := keys $config }}
{{- if and (eq (lower $key) (index $fromSecret 0)) (kindIs "map" (get $config $key)) }}
{{- range $inner := keys (get $config $key) }}
{{- if eq (lower $inner) (index $fromSecret 1) }}
{{- fail (printf "config.%s.%s: set it through %s instead" $key $inner (index $fromSecret 2)) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- $caching := dig "Pseudonymization" "Caching" dict $config }}
{{- $cached := or (eq (dig "Namespaces" "IsEnabled" false $caching | toString | lower) "true") (eq (dig "Pseudonyms" "IsEnabled" false $caching | toString | lower) "true") }}
{{- $replicated := or (gt (int .Values.replicaCount) 1) .Values.autoscaling.enabled }}
{{- if and $cached $replicated (not .Values.cluster.enabled) }}
{{- fail "caches on several replicas need cluster.enabled=true (else a namespace deleted through one replica stays in the caches of the others)" }}
{{- end }}
{{- if and .Values.cluster.enabled (ne (int .Values.cluster.port) 5701) }}
{{- fail "cluster.port: the Kubernetes DNS discovery connects to 5701; keep cluster.port at 5701" }}
{{- end }}
{{- end }}

{{/* The Secret with tls.crt and tls.key: the user's, or the one cert-manager fills. */}}
{{- define "vfps.tlsSecretName" -}}
{{- if .Values.tls.secretName }}
{{- .Values.tls.secretName }}
{{- else if .Values.tls.certManager.enabled }}
{{- printf "%s-tls" (include "vfps.fullname" . | trunc 59 | trimSuffix "-") }}
{{- else }}
{{- fail "tls.enabled needs a certificate: set tls.secretName (a Secret of type kubernetes.io/tls) or tls.certManager.enabled" }}
{{- end }}
{{- end }}

{{/* Where the pods see the TLS Secret. */}}
{{- define "vfps.tlsDirectory" -}}
/etc/vfps/tls
{{- end }}

{{/*
A probe of values (dict "probe" ... "root" $); an httpGet on the HTTP port switches to HTTPS when
TLS is on, unless it names a scheme itself.
*/}}
{{- define "vfps.probe" -}}
{{- $probe := deepCopy .probe }}
{{- $get := $probe.httpGet }}
{{- if and .root.Values.tls.enabled $get }}
{{- if and (not $get.scheme) (has (toString $get.port) (list "http" (toString .root.Values.ports.http))) }}
{{- $_ := set $get "scheme" "HTTPS" }}
{{- end }}
{{- end }}
{{- toYaml $probe }}
{{- end }}

{{/* The VOPRF server's Deployment, Service and pods: <fullname>-voprf. */}}
{{- define "vfps.voprfName" -}}
{{- printf "%s-voprf" (include "vfps.fullname" . | trunc 57 | trimSuffix "-") }}
{{- end }}

{{/*
The VOPRF server's pods: a name of their own, so that vfps's Services, PodDisruptionBudget and
spread constraints (which select app.kubernetes.io/name=<name>) never take them, and a
NetworkPolicy can tell them from vfps's pods.
*/}}
{{- define "vfps.voprfSelectorLabels" -}}
app.kubernetes.io/name: {{ include "vfps.name" . | trunc 57 | trimSuffix "-" }}-voprf
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: voprf-server
{{- end }}

{{/* The Secret with the VOPRF server's key or seed: the user's, or the one this chart makes. */}}
{{- define "vfps.voprfKeySecretName" -}}
{{- if .Values.voprf.server.key.existingSecret }}
{{- .Values.voprf.server.key.existingSecret }}
{{- else }}
{{- printf "%s-key" (include "vfps.voprfName" .) }}
{{- end }}
{{- end }}

{{- define "vfps.voprfKeySecretKey" -}}
{{- if .Values.voprf.server.key.existingSecret }}
{{- .Values.voprf.server.key.existingSecretKey }}
{{- else if .Values.voprf.server.key.seed }}
{{- print "seed" }}
{{- else }}
{{- print "key" }}
{{- end }}
{{- end }}

{{/* "seed" or "key": what the key Secret holds. */}}
{{- define "vfps.voprfKeyHolds" -}}
{{- if .Values.voprf.server.key.existingSecret }}
{{- .Values.voprf.server.key.existingSecretHolds }}
{{- else if .Values.voprf.server.key.seed }}
{{- print "seed" }}
{{- else }}
{{- print "key" }}
{{- end }}
{{- end }}

{{/* Where the VOPRF server's pods see their files. */}}
{{- define "vfps.voprfKeyDirectory" -}}
/etc/vfps/voprf-key
{{- end }}

{{/* Where vfps's pods see the VOPRF client's files. */}}
{{- define "vfps.voprfClientTlsDirectory" -}}
/etc/vfps/voprf-client
{{- end }}

{{- define "vfps.voprfTrustDirectory" -}}
/etc/vfps/voprf-ca
{{- end }}

{{- define "vfps.voprfTokenDirectory" -}}
/etc/vfps/voprf-token
{{- end }}

{{/* Whether the release's VOPRF server speaks TLS: "true" or "". */}}
{{- define "vfps.voprfServerTls" -}}
{{- if .Values.voprf.server.tls.secretName }}true{{ end }}
{{- end }}

{{/*
The address vfps calls (Voprf__Address), or "" when the method is off: voprf.client.address, else
this release's server once a public key is pinned (or unpinned keys are allowed).
*/}}
{{- define "vfps.voprfAddress" -}}
{{- $client := .Values.voprf.client }}
{{- if $client.address }}
{{- $client.address }}
{{- else if and .Values.voprf.server.enabled (or $client.publicKey $client.allowUnpinnedPublicKey) }}
{{- printf "%s://%s.%s.svc:%d" (ternary "https" "http" (eq (include "vfps.voprfServerTls" .) "true")) (include "vfps.voprfName" .) .Release.Namespace (int .Values.voprf.server.port) }}
{{- end }}
{{- end }}

{{/* Whether the settings of voprf are refused. */}}
{{- define "vfps.checkVoprf" -}}
{{- $server := .Values.voprf.server }}
{{- $client := .Values.voprf.client }}
{{- $serverConfig := $server.config | default dict }}
{{- range $key := keys $serverConfig }}
{{- if has (lower $key) (list "key" "port") }}
{{- fail (printf "voprf.server.config.%s: set it through voprf.server.key or voprf.server.port instead" $key) }}
{{- end }}
{{- end }}
{{- range $key := keys ($client.config | default dict) }}
{{- if has (lower $key) (list "address" "publickey" "expectedkeyid" "allowunpinnedpublickey" "tls" "bearertokenpath") }}
{{- fail (printf "voprf.client.config.%s: set it through voprf.client instead" $key) }}
{{- end }}
{{- end }}
{{- if $server.enabled }}
{{- $key := $server.key }}
{{- $sources := 0 }}
{{- range $value := list $key.existingSecret $key.base64 $key.seed }}
{{- if $value }}{{ $sources = add1 $sources }}{{ end }}
{{- end }}
{{- if eq $sources 0 }}
{{- fail "voprf.server.enabled needs a key: set voprf.server.key.existingSecret (a Secret holding the key or a seed), voprf.server.key.base64 or voprf.server.key.seed" }}
{{- end }}
{{- if gt $sources 1 }}
{{- fail "voprf.server.key: set only one of existingSecret, base64 and seed" }}
{{- end }}
{{- if not (has (toString $key.existingSecretHolds) (list "key" "seed")) }}
{{- fail "voprf.server.key.existingSecretHolds: key (the base64 of the 32-byte secret key) or seed" }}
{{- end }}
{{- if not (regexMatch "^[A-Za-z0-9_-]{1,64}$" (toString $key.keyId)) }}
{{- fail "voprf.server.key.keyId: 1 to 64 of the characters A-Z a-z 0-9 _ - (no dot: pseudonyms separate the key id with one)" }}
{{- end }}
{{- $hardening := $serverConfig.Hardening | default dict }}
{{- $hardened := ne (toString (dig "IsEnabled" true $hardening) | lower) "false" }}
{{- if and $hardened (ne (toString (dig "RequireTls" true $hardening) | lower) "false") (not $server.tls.secretName) }}
{{- fail "voprf.server.tls.secretName: the hardened VOPRF server needs TLS (a Secret of type kubernetes.io/tls naming the Service)" }}
{{- end }}
{{- $authentication := $serverConfig.Authentication | default dict }}
{{- $mode := toString (dig "Mode" "ClientCertificate" $authentication) | lower }}
{{- if and $hardened (ne (toString (dig "RequireAuthentication" true $hardening) | lower) "false") (eq $mode "clientcertificate") (not (dig "ClientCertificate" "AllowedThumbprints" (list) $authentication)) }}
{{- fail "voprf.server.config.Authentication.ClientCertificate.AllowedThumbprints: the hardened VOPRF server takes client certificates; allow at least vfps's (its SHA-256 thumbprint)" }}
{{- end }}
{{- if not $hardened }}
{{- $development := false }}
{{- range $server.extraEnv }}
{{- if and (eq .name "ASPNETCORE_ENVIRONMENT") (eq (toString .value) "Development") }}{{ $development = true }}{{ end }}
{{- end }}
{{- if not $development }}
{{- fail "voprf.server.config.Hardening.IsEnabled=false is for development only: it needs ASPNETCORE_ENVIRONMENT=Development in voprf.server.extraEnv" }}
{{- end }}
{{- end }}
{{- if and (not $client.address) (gt (int (dig "MaxBatchSize" 128 ($client.config | default dict))) (int (dig "MaxBatchSize" 128 $serverConfig))) }}
{{- fail "voprf.client.config.MaxBatchSize: more than the server's voprf.server.config.MaxBatchSize, which refuses larger batches" }}
{{- end }}
{{- end }}
{{- if and $client.address (not $client.publicKey) (not $client.allowUnpinnedPublicKey) }}
{{- fail "voprf.client.publicKey: the VOPRF server's public key is pinned (base64 or hex, as the server logs it at start); voprf.client.allowUnpinnedPublicKey is for development only" }}
{{- end }}
{{- if and $client.bearerToken.audience $client.bearerToken.existingSecret }}
{{- fail "voprf.client.bearerToken: set one of audience (a projected service-account token) and existingSecret" }}
{{- end }}
{{- if hasPrefix "http://" (include "vfps.voprfAddress" . | lower) }}
{{- if or $client.tls.secretName $client.tls.trustedCertificates.secretName $client.bearerToken.audience $client.bearerToken.existingSecret }}
{{- fail "voprf.client: a client certificate, trusted certificates or a bearer token need an https:// address (TLS on the server)" }}
{{- end }}
{{- end }}
{{- end }}

{{/* vfps's VOPRF client settings, when the method is on. */}}
{{- define "vfps.voprfClientEnv" -}}
{{- $address := include "vfps.voprfAddress" . }}
{{- if $address }}
{{- $client := .Values.voprf.client }}
- name: Voprf__Address
  value: {{ $address | quote }}
{{- with $client.publicKey }}
- name: Voprf__PublicKey
  value: {{ . | quote }}
{{- end }}
{{- $expected := $client.expectedKeyId }}
{{- if and (not $expected) (not $client.address) }}
{{- $expected = .Values.voprf.server.key.keyId }}
{{- end }}
{{- with $expected }}
- name: Voprf__ExpectedKeyId
  value: {{ . | quote }}
{{- end }}
{{- if $client.allowUnpinnedPublicKey }}
- name: Voprf__AllowUnpinnedPublicKey
  value: "true"
{{- end }}
{{- if $client.tls.secretName }}
- name: Voprf__Tls__CertificatePath
  value: {{ printf "%s/tls.crt" (include "vfps.voprfClientTlsDirectory" .) }}
- name: Voprf__Tls__KeyPath
  value: {{ printf "%s/tls.key" (include "vfps.voprfClientTlsDirectory" .) }}
{{- end }}
{{- with $client.tls.trustedCertificates }}
{{- if .secretName }}
- name: Voprf__Tls__TrustedCertificatesPath
  value: {{ printf "%s/%s" (include "vfps.voprfTrustDirectory" $) .key }}
{{- end }}
{{- end }}
{{- if or $client.bearerToken.audience $client.bearerToken.existingSecret }}
- name: Voprf__BearerTokenPath
  value: {{ printf "%s/token" (include "vfps.voprfTokenDirectory" .) }}
{{- end }}
{{- include "vfps.configEnv" (dict "name" "Voprf" "value" $client.config) }}
{{- end }}
{{- end }}

{{/*
The key files from Secrets that a server of the release reads (root: the chart's context; server:
"vfps" or "voprf-server", which signs audit checkpoints but seals nothing), as a JSON list of the
setting that names the file, the Secret and its key, and the file's name in the owner-only copy.
See values.yaml's sealing.
*/}}
{{- define "vfps.keyFiles" -}}
{{- $files := list }}
{{- with .root.Values.sealing }}
{{- if and .existingSecret (eq $.server "vfps") }}
{{- $files = append $files (dict "setting" "Sealing__KeyFile" "volume" "sealing-key" "secret" .existingSecret "key" .existingSecretKey "file" "sealing-keys.json") }}
{{- end }}
{{- end }}
{{- with .root.Values.audit.signingKey }}
{{- if .existingSecret }}
{{- $files = append $files (dict "setting" "Audit__SigningKeyFile" "volume" "audit-signing-key" "secret" .existingSecret "key" .existingSecretKey "file" "audit-signing-key.pem") }}
{{- end }}
{{- end }}
{{- toJson $files }}
{{- end }}

{{/* Where a server reads the owner-only copies of its key files. */}}
{{- define "vfps.keyFilesDirectory" -}}
/etc/vfps/keys
{{- end }}

{{/*
The init container that copies each key file (files) from its Secret into the in-memory emptyDir,
owner-only: vfps refuses a key file that its group or others may read.
*/}}
{{- define "vfps.keyFilesInitContainer" -}}
- name: key-files
  image: {{ include "vfps.image" .root }}
  imagePullPolicy: {{ .root.Values.image.pullPolicy }}
  command:
    - sh
    - -ec
    - |
      umask 077
      {{- range .files }}
      cp -f /etc/vfps/secrets/{{ .volume }}/{{ .file }} {{ include "vfps.keyFilesDirectory" $.root }}/{{ .file }}
      {{- end }}
  securityContext:
    {{- toYaml .root.Values.securityContext | nindent 4 }}
  resources:
    requests:
      cpu: 10m
      memory: 16Mi
    limits:
      memory: 16Mi
  volumeMounts:
    - name: key-files
      mountPath: {{ include "vfps.keyFilesDirectory" .root }}
    {{- range .files }}
    - name: {{ .volume }}
      mountPath: /etc/vfps/secrets/{{ .volume }}
      readOnly: true
    {{- end }}
{{- end }}

{{/* The settings that name the copies (files). */}}
{{- define "vfps.keyFilesEnv" -}}
{{- range .files }}
- name: {{ .setting }}
  value: {{ include "vfps.keyFilesDirectory" $.root }}/{{ .file }}
{{- end }}
{{- end }}

{{/* The server's mount of the copies. */}}
{{- define "vfps.keyFilesMount" -}}
- name: key-files
  mountPath: {{ include "vfps.keyFilesDirectory" . }}
  readOnly: true
{{- end }}

{{/*
The volumes of the key files (a list of them): the copies, in memory and never on the node's disk,
and each Secret, readable by the init container's user (neither root nor in root's group); only the
init container mounts the Secrets.
*/}}
{{- define "vfps.keyFilesVolumes" -}}
- name: key-files
  emptyDir:
    medium: Memory
    sizeLimit: 1Mi
{{- range . }}
- name: {{ .volume }}
  secret:
    secretName: {{ .secret }}
    defaultMode: 0444
    items:
      - key: {{ .key }}
        path: {{ .file }}
{{- end }}
{{- end }}
