// Assistant payloads shared by the assistant suites: a full configuration a Vapi or Retell user
// would write, and its secrets.
export const assistantSecrets = { sipHeader: 'sip-assistant-secret-5d2e91' };

export const fullAssistant = (name = `Receptionist ${Math.random().toString(36).slice(2, 8)}`) => ({
  name,
  description: 'Answers the front desk line',
  first_message: 'Hello {{customer_name}}, thanks for calling Acme. How can I help?',
  first_message_mode: 'assistant_speaks_first',
  system_prompt: 'You are the receptionist of Acme Dental. Book, move and cancel appointments.',
  language: 'en-US',
  model: { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.3, max_tokens: 400 },
  voice: { provider: 'azure', voice_id: 'en-US-JennyNeural', speed: 1.1, stability: 0.6 },
  transcriber: { provider: 'deepgram', model: 'nova-3', language: 'en' },
  builtin_tools: [
    { type: 'call_transfer', destination: '+14155550123', sip_headers: { 'X-Account': assistantSecrets.sipHeader } },
    { type: 'end_call', message: 'Goodbye!' },
  ],
  variables: [{ name: 'customer_name', description: 'who is calling', default_value: 'there' }],
  end_call: { max_duration_seconds: 900, silence_timeout_seconds: 20, phrases: ['goodbye', 'bye for now'], message: 'Thanks for calling.' },
  voicemail: { detection_enabled: true, action: 'leave_message', message: 'Please call us back.' },
  recording_enabled: false,
  background_sound: 'office',
  analysis_plan: {
    summary_instructions: 'Summarise the call in two sentences.',
    structured_data_schema: { type: 'object', properties: { appointment_booked: { type: 'boolean' } }, required: ['appointment_booked'] },
    success_criteria: 'An appointment was booked or moved.',
  },
  metadata: { crm: 'hubspot', 'team.id': 7 },
});
