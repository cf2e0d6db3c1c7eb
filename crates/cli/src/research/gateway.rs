//! The `research` binary's side of the gateway: [`GatewayBackend`] with a
//! spinner on stderr while the gateway works (only when stderr is a terminal).

use crate::progress;
use sgw_research::gateway_backend::GatewayBackend;
use sgw_research::{
    Backend, BackendError, EvidenceTexts, ExtractRequest, Extraction, GateEvidence, GatewayOptions,
    GatewayReport, SearchRequest, StoredSubmission,
};
use std::collections::HashMap;

/// The gateway, with a spinner around its long calls (search, submission).
#[derive(Debug)]
pub struct SpinningGateway(pub GatewayBackend);

impl Backend for SpinningGateway {
    fn search(
        &self,
        options: &GatewayOptions,
        request: &SearchRequest,
    ) -> Result<GatewayReport, BackendError> {
        let bar = progress::spinner(format!(
            "searching for {}: {}",
            request.sub_question_id, request.sub_question_text
        ));
        let out = self.0.search(options, request);
        bar.finish_and_clear();
        out
    }

    fn evidence_texts(
        &self,
        options: &GatewayOptions,
        evidence_ids: &[String],
    ) -> Result<HashMap<String, String>, BackendError> {
        self.0.evidence_texts(options, evidence_ids)
    }

    fn extract(
        &self,
        request: &ExtractRequest<'_>,
        texts: &dyn EvidenceTexts,
    ) -> Result<Extraction, BackendError> {
        self.0.extract(request, texts)
    }

    fn submit_evidence(
        &self,
        options: &GatewayOptions,
        gate: &GateEvidence<'_>,
    ) -> Result<StoredSubmission, BackendError> {
        let bar = progress::spinner(format!("handing in evidence for {}", gate.gate_id));
        let out = self.0.submit_evidence(options, gate);
        bar.finish_and_clear();
        out
    }
}
