/**
 * The purpose concepts of the W3C Data Privacy Vocabulary's core (`https://w3id.org/dpv#`): the
 * union of its releases 1.0, 2.0 and 2.1 and the working draft, and the earlier names their notes
 * give (AccessControl, Security, UsageAnalytics, CommercialInterest), so that a term a tenant took
 * from any of them stays accepted. Read from the purposes module of github.com/w3c/dpv.
 */
const CORE_PURPOSES: ReadonlySet<string> = new Set(
  `AccessControl Security UsageAnalytics CommercialInterest
   AcademicResearch AccountManagement Advertising AgeVerification AntiTerrorismOperations CombatClimateChange
   CommercialPurpose CommercialResearch CommunicationForCustomerCare CommunicationManagement
   CounterMoneyLaundering Counterterrorism CreditChecking CustomerCare CustomerClaimsManagement
   CustomerManagement CustomerOrderManagement CustomerRelationshipManagement CustomerSolvencyMonitoring
   DataAltruism DeliveryOfGoods DirectMarketing DisputeManagement EnforceAccessControl EnforceSecurity
   EstablishContractualAgreement FraudPreventionAndDetection FulfilmentOfContractualObligation
   FulfilmentOfObligation HumanResourceManagement IdentityAuthentication IdentityVerification
   ImproveExistingProductsAndServices ImproveHealthcare ImproveInternalCRMProcesses ImprovePublicServices
   ImproveTransportMobility IncreaseServiceRobustness InternalResourceOptimisation LegalCompliance
   MaintainCreditCheckingDatabase MaintainCreditRatingDatabase MaintainFraudDatabase Marketing
   MemberPartnerManagement MisusePreventionAndDetection NonCommercialPurpose NonCommercialResearch
   OptimisationForConsumer OptimisationForController OptimiseUserInterface OrganisationComplianceManagement
   OrganisationGovernance OrganisationRiskManagement PaymentManagement Personalisation PersonalisedAdvertising
   PersonalisedBenefits PersonnelBehaviourMonitoring PersonnelHiring PersonnelManagement PersonnelMonitoring
   PersonnelOffboarding PersonnelOnboarding PersonnelPayment PersonnelPerformanceEvaluation
   PersonnelPerformanceManagement PersonnelPerformanceMonitoring PersonnelPerformancePrediction
   PersonnelPromotionManagement PersonnelTerminationManagement PersonnelWorkloadManagement PoliticalCampaign
   ProtectionOfIPR ProtectionOfNationalSecurity ProtectionOfPublicSecurity ProvideEventRecommendations
   ProvideOfficialStatistics ProvidePersonalisedRecommendations ProvideProductRecommendations PublicBenefit
   PublicPolicyMaking PublicRelations Purpose RecordManagement RecruitmentAdvertising
   RecruitmentApplicantBackgroundCheck RecruitmentApplicantCriminalBackgroundCheck
   RecruitmentApplicantInformationAuthentication RecruitmentApplicantSelection RecruitmentApplicationAnalysis
   RecruitmentApplicationManagement RecruitmentApplicationScreening RecruitmentInterviewAnalysis
   RecruitmentInterviewAssessment RecruitmentInterviewManagement RecruitmentInterviewScheduling
   RecruitmentManagement RecruitmentTargetedAdvertising RepairImpairments RequestedServiceProvision
   ResearchAndDevelopment RightsFulfillment ScientificResearch SearchFunctionalities SellDataToThirdParties
   SellInsightsFromData SellProducts SellProductsToDataSubject ServiceOptimisation ServicePersonalisation
   ServiceProvision ServiceRegistration ServiceUsageAnalytics SocialMediaMarketing TargetedAdvertising
   TechnicalServiceProvision UserInterfacePersonalisation VendorManagement VendorPayment VendorRecordsManagement
   VendorSelectionAssessment Verification`.split(/\s+/),
);

const CORE = /^(?:dpv:|https:\/\/w3id\.org\/dpv(?:\/owl)?#)([A-Za-z0-9]+)$/;

/** The core purpose term nearest to `name` (letters' case ignored, at most 3 edits), if any. */
function nearest(name: string): string | undefined {
  const lower = name.toLowerCase();
  let best: { term: string; distance: number } | undefined;
  for (const term of CORE_PURPOSES) {
    const distance = editDistance(lower, term.toLowerCase(), 3);
    if (distance <= 3 && (best === undefined || distance < best.distance)) best = { term, distance };
  }
  return best?.term;
}

/** Levenshtein distance between `a` and `b`, or `limit + 1` once it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    if (Math.min(...current) > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** Why a DPV term was refused, and the core term it nearest names, when one is near. */
export interface DpvPurposeProblem {
  problem: string;
  suggestion?: string;
}

/** A name alone, without `dpv:` or an IRI: refused, with the term it would be. */
const BARE = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Why `term` is not a purpose of DPV's core, or undefined when it is one. Only the core
 * (`dpv:Name`, `https://w3id.org/dpv#Name`) is checked by name, letters' case included; an
 * extension's IRI (`https://w3id.org/dpv/sector/finance#…`) is taken as written, its vocabularies
 * being many, and so is a release's (`https://w3id.org/dpv/2.2#…`), the way to name a term of a
 * later release. A name alone (`Marketing`) is refused with its prefixed form.
 *
 * @example
 * dpvPurposeProblem('dpv:Marketting') // { problem: 'dpv:Marketting is not a purpose of the W3C DPV (did you mean dpv:Marketing?)', suggestion: 'dpv:Marketing' }
 * dpvPurposeProblem('marketing') // { problem: 'marketing is not a W3C DPV term: give it with its prefix (did you mean dpv:Marketing?)', suggestion: 'dpv:Marketing' }
 */
export function dpvPurposeProblem(term: string): DpvPurposeProblem | undefined {
  if (BARE.test(term)) {
    const near = nearest(term);
    const suggestion = near === undefined ? undefined : `dpv:${near}`;
    const hint = suggestion ? `did you mean ${suggestion}?` : 'such as dpv:Marketing';
    return { problem: `${term} is not a W3C DPV term: give it with its prefix (${hint})`, ...(suggestion ? { suggestion } : {}) };
  }
  const name = CORE.exec(term)?.[1];
  if (name === undefined || CORE_PURPOSES.has(name)) return undefined;
  const near = nearest(name);
  const prefix = term.startsWith('dpv:') ? 'dpv:' : term.slice(0, term.indexOf('#') + 1);
  const suggestion = near === undefined ? undefined : `${prefix}${near}`;
  const hint = suggestion
    ? ` (did you mean ${suggestion}?)`
    : ' (only its purposes are taken, such as dpv:Marketing; a purpose of a later release: give its IRI with the release, https://w3id.org/dpv/2.2#Name)';
  return { problem: `${term} is not a purpose of the W3C DPV${hint}`, ...(suggestion ? { suggestion } : {}) };
}
