import LedgerStorage

// The contact relation labels: one constant per name in the reference list
// relation-labels.txt (216 names, taken from the framework documentation).
//
// Raw values: the eleven iOS 9 labels (the AddressBook-era ones, such as
// `_$!<Mother>!$_`) are observed in Apple exports; for every later label the
// `_$!<Name>!$_` form is inferred from that pattern, as no public source shows it.

extension Label {
    // MARK: iOS 9.0

    /// The relation label "assistant" (raw value observed).
    public static let contactRelationAssistant = "_$!<Assistant>!$_"
    /// The relation label "brother" (raw value observed).
    public static let contactRelationBrother = "_$!<Brother>!$_"
    /// The relation label "child" (raw value observed).
    public static let contactRelationChild = "_$!<Child>!$_"
    /// The relation label "father" (raw value observed).
    public static let contactRelationFather = "_$!<Father>!$_"
    /// The relation label "friend" (raw value observed).
    public static let contactRelationFriend = "_$!<Friend>!$_"
    /// The relation label "manager" (raw value observed).
    public static let contactRelationManager = "_$!<Manager>!$_"
    /// The relation label "mother" (raw value observed).
    public static let contactRelationMother = "_$!<Mother>!$_"
    /// The relation label "parent" (raw value observed).
    public static let contactRelationParent = "_$!<Parent>!$_"
    /// The relation label "partner" (raw value observed).
    public static let contactRelationPartner = "_$!<Partner>!$_"
    /// The relation label "sister" (raw value observed).
    public static let contactRelationSister = "_$!<Sister>!$_"
    /// The relation label "spouse" (raw value observed).
    public static let contactRelationSpouse = "_$!<Spouse>!$_"

    // MARK: iOS 11.0

    /// The relation label "daughter" (raw value inferred).
    public static let contactRelationDaughter = "_$!<Daughter>!$_"
    /// The relation label "son" (raw value inferred).
    public static let contactRelationSon = "_$!<Son>!$_"

    // MARK: iOS 13.0

    /// The relation label "aunt" (raw value inferred).
    public static let contactRelationAunt = "_$!<Aunt>!$_"
    /// The relation label "aunt father's brother's wife" (raw value inferred).
    public static let contactRelationAuntFathersBrothersWife = "_$!<AuntFathersBrothersWife>!$_"
    /// The relation label "aunt father's elder brother's wife" (raw value inferred).
    public static let contactRelationAuntFathersElderBrothersWife =
        "_$!<AuntFathersElderBrothersWife>!$_"
    /// The relation label "aunt father's elder sister" (raw value inferred).
    public static let contactRelationAuntFathersElderSister = "_$!<AuntFathersElderSister>!$_"
    /// The relation label "aunt father's sister" (raw value inferred).
    public static let contactRelationAuntFathersSister = "_$!<AuntFathersSister>!$_"
    /// The relation label "aunt father's younger brother's wife" (raw value inferred).
    public static let contactRelationAuntFathersYoungerBrothersWife =
        "_$!<AuntFathersYoungerBrothersWife>!$_"
    /// The relation label "aunt father's younger sister" (raw value inferred).
    public static let contactRelationAuntFathersYoungerSister = "_$!<AuntFathersYoungerSister>!$_"
    /// The relation label "aunt mother's brother's wife" (raw value inferred).
    public static let contactRelationAuntMothersBrothersWife = "_$!<AuntMothersBrothersWife>!$_"
    /// The relation label "aunt mother's elder sister" (raw value inferred).
    public static let contactRelationAuntMothersElderSister = "_$!<AuntMothersElderSister>!$_"
    /// The relation label "aunt mother's sister" (raw value inferred).
    public static let contactRelationAuntMothersSister = "_$!<AuntMothersSister>!$_"
    /// The relation label "aunt mother's younger sister" (raw value inferred).
    public static let contactRelationAuntMothersYoungerSister = "_$!<AuntMothersYoungerSister>!$_"
    /// The relation label "aunt parent's elder sister" (raw value inferred).
    public static let contactRelationAuntParentsElderSister = "_$!<AuntParentsElderSister>!$_"
    /// The relation label "aunt parent's sister" (raw value inferred).
    public static let contactRelationAuntParentsSister = "_$!<AuntParentsSister>!$_"
    /// The relation label "aunt parent's younger sister" (raw value inferred).
    public static let contactRelationAuntParentsYoungerSister = "_$!<AuntParentsYoungerSister>!$_"
    /// The relation label "boyfriend" (raw value inferred).
    public static let contactRelationBoyfriend = "_$!<Boyfriend>!$_"
    /// The relation label "brother-in-law" (raw value inferred).
    public static let contactRelationBrotherInLaw = "_$!<BrotherInLaw>!$_"
    /// The relation label "brother-in-law elder sister's husband" (raw value inferred).
    public static let contactRelationBrotherInLawElderSistersHusband =
        "_$!<BrotherInLawElderSistersHusband>!$_"
    /// The relation label "brother-in-law husband's brother" (raw value inferred).
    public static let contactRelationBrotherInLawHusbandsBrother =
        "_$!<BrotherInLawHusbandsBrother>!$_"
    /// The relation label "brother-in-law husband's sister's husband" (raw value inferred).
    public static let contactRelationBrotherInLawHusbandsSistersHusband =
        "_$!<BrotherInLawHusbandsSistersHusband>!$_"
    /// The relation label "brother-in-law sister's husband" (raw value inferred).
    public static let contactRelationBrotherInLawSistersHusband =
        "_$!<BrotherInLawSistersHusband>!$_"
    /// The relation label "brother-in-law spouse's brother" (raw value inferred).
    public static let contactRelationBrotherInLawSpousesBrother =
        "_$!<BrotherInLawSpousesBrother>!$_"
    /// The relation label "brother-in-law wife's brother" (raw value inferred).
    public static let contactRelationBrotherInLawWifesBrother = "_$!<BrotherInLawWifesBrother>!$_"
    /// The relation label "brother-in-law wife's sister's husband" (raw value inferred).
    public static let contactRelationBrotherInLawWifesSistersHusband =
        "_$!<BrotherInLawWifesSistersHusband>!$_"
    /// The relation label "brother-in-law younger sister's husband" (raw value inferred).
    public static let contactRelationBrotherInLawYoungerSistersHusband =
        "_$!<BrotherInLawYoungerSistersHusband>!$_"
    /// The relation label "child-in-law" (raw value inferred).
    public static let contactRelationChildInLaw = "_$!<ChildInLaw>!$_"
    /// The relation label "co-brother-in-law" (raw value inferred).
    public static let contactRelationCoBrotherInLaw = "_$!<CoBrotherInLaw>!$_"
    /// The relation label "co-father-in-law" (raw value inferred).
    public static let contactRelationCoFatherInLaw = "_$!<CoFatherInLaw>!$_"
    /// The relation label "co-mother-in-law" (raw value inferred).
    public static let contactRelationCoMotherInLaw = "_$!<CoMotherInLaw>!$_"
    /// The relation label "co-parent-in-law" (raw value inferred).
    public static let contactRelationCoParentInLaw = "_$!<CoParentInLaw>!$_"
    /// The relation label "co-sibling-in-law" (raw value inferred).
    public static let contactRelationCoSiblingInLaw = "_$!<CoSiblingInLaw>!$_"
    /// The relation label "co-sister-in-law" (raw value inferred).
    public static let contactRelationCoSisterInLaw = "_$!<CoSisterInLaw>!$_"
    /// The relation label "colleague" (raw value inferred).
    public static let contactRelationColleague = "_$!<Colleague>!$_"
    /// The relation label "cousin" (raw value inferred).
    public static let contactRelationCousin = "_$!<Cousin>!$_"
    /// The relation label "cousin father's brother's daughter" (raw value inferred).
    public static let contactRelationCousinFathersBrothersDaughter =
        "_$!<CousinFathersBrothersDaughter>!$_"
    /// The relation label "cousin father's brother's son" (raw value inferred).
    public static let contactRelationCousinFathersBrothersSon = "_$!<CousinFathersBrothersSon>!$_"
    /// The relation label "cousin father's sister's daughter" (raw value inferred).
    public static let contactRelationCousinFathersSistersDaughter =
        "_$!<CousinFathersSistersDaughter>!$_"
    /// The relation label "cousin father's sister's son" (raw value inferred).
    public static let contactRelationCousinFathersSistersSon = "_$!<CousinFathersSistersSon>!$_"
    /// The relation label "cousin grandparent's sibling's child" (raw value inferred).
    public static let contactRelationCousinGrandparentsSiblingsChild =
        "_$!<CousinGrandparentsSiblingsChild>!$_"
    /// The relation label "cousin grandparent's sibling's daughter" (raw value inferred).
    public static let contactRelationCousinGrandparentsSiblingsDaughter =
        "_$!<CousinGrandparentsSiblingsDaughter>!$_"
    /// The relation label "cousin grandparent's sibling's son" (raw value inferred).
    public static let contactRelationCousinGrandparentsSiblingsSon =
        "_$!<CousinGrandparentsSiblingsSon>!$_"
    /// The relation label "cousin mother's brother's daughter" (raw value inferred).
    public static let contactRelationCousinMothersBrothersDaughter =
        "_$!<CousinMothersBrothersDaughter>!$_"
    /// The relation label "cousin mother's brother's son" (raw value inferred).
    public static let contactRelationCousinMothersBrothersSon = "_$!<CousinMothersBrothersSon>!$_"
    /// The relation label "cousin mother's sister's daughter" (raw value inferred).
    public static let contactRelationCousinMothersSistersDaughter =
        "_$!<CousinMothersSistersDaughter>!$_"
    /// The relation label "cousin mother's sister's son" (raw value inferred).
    public static let contactRelationCousinMothersSistersSon = "_$!<CousinMothersSistersSon>!$_"
    /// The relation label "cousin or sibling's child" (raw value inferred).
    public static let contactRelationCousinOrSiblingsChild = "_$!<CousinOrSiblingsChild>!$_"
    /// The relation label "cousin parent's sibling's child" (raw value inferred).
    public static let contactRelationCousinParentsSiblingsChild =
        "_$!<CousinParentsSiblingsChild>!$_"
    /// The relation label "cousin parent's sibling's daughter" (raw value inferred).
    public static let contactRelationCousinParentsSiblingsDaughter =
        "_$!<CousinParentsSiblingsDaughter>!$_"
    /// The relation label "cousin parent's sibling's son" (raw value inferred).
    public static let contactRelationCousinParentsSiblingsSon = "_$!<CousinParentsSiblingsSon>!$_"
    /// The relation label "daughter-in-law" (raw value inferred).
    public static let contactRelationDaughterInLaw = "_$!<DaughterInLaw>!$_"
    /// The relation label "daughter-in-law or sister-in-law" (raw value inferred).
    public static let contactRelationDaughterInLawOrSisterInLaw =
        "_$!<DaughterInLawOrSisterInLaw>!$_"
    /// The relation label "daughter-in-law or stepdaughter" (raw value inferred).
    public static let contactRelationDaughterInLawOrStepdaughter =
        "_$!<DaughterInLawOrStepdaughter>!$_"
    /// The relation label "elder brother" (raw value inferred).
    public static let contactRelationElderBrother = "_$!<ElderBrother>!$_"
    /// The relation label "elder brother-in-law" (raw value inferred).
    public static let contactRelationElderBrotherInLaw = "_$!<ElderBrotherInLaw>!$_"
    /// The relation label "elder cousin" (raw value inferred).
    public static let contactRelationElderCousin = "_$!<ElderCousin>!$_"
    /// The relation label "elder cousin father's brother's daughter" (raw value inferred).
    public static let contactRelationElderCousinFathersBrothersDaughter =
        "_$!<ElderCousinFathersBrothersDaughter>!$_"
    /// The relation label "elder cousin father's brother's son" (raw value inferred).
    public static let contactRelationElderCousinFathersBrothersSon =
        "_$!<ElderCousinFathersBrothersSon>!$_"
    /// The relation label "elder cousin father's sister's daughter" (raw value inferred).
    public static let contactRelationElderCousinFathersSistersDaughter =
        "_$!<ElderCousinFathersSistersDaughter>!$_"
    /// The relation label "elder cousin father's sister's son" (raw value inferred).
    public static let contactRelationElderCousinFathersSistersSon =
        "_$!<ElderCousinFathersSistersSon>!$_"
    /// The relation label "elder cousin mother's brother's daughter" (raw value inferred).
    public static let contactRelationElderCousinMothersBrothersDaughter =
        "_$!<ElderCousinMothersBrothersDaughter>!$_"
    /// The relation label "elder cousin mother's brother's son" (raw value inferred).
    public static let contactRelationElderCousinMothersBrothersSon =
        "_$!<ElderCousinMothersBrothersSon>!$_"
    /// The relation label "elder cousin mother's sibling's daughter or father's sister's daughter"
    /// (raw value inferred).
    public static let contactRelationElderCousinMothersSiblingsDaughterOrFathersSistersDaughter =
        "_$!<ElderCousinMothersSiblingsDaughterOrFathersSistersDaughter>!$_"
    /// The relation label "elder cousin mother's sibling's son or father's sister's son" (raw value
    /// inferred).
    public static let contactRelationElderCousinMothersSiblingsSonOrFathersSistersSon =
        "_$!<ElderCousinMothersSiblingsSonOrFathersSistersSon>!$_"
    /// The relation label "elder cousin mother's sister's daughter" (raw value inferred).
    public static let contactRelationElderCousinMothersSistersDaughter =
        "_$!<ElderCousinMothersSistersDaughter>!$_"
    /// The relation label "elder cousin mother's sister's son" (raw value inferred).
    public static let contactRelationElderCousinMothersSistersSon =
        "_$!<ElderCousinMothersSistersSon>!$_"
    /// The relation label "elder cousin parent's sibling's daughter" (raw value inferred).
    public static let contactRelationElderCousinParentsSiblingsDaughter =
        "_$!<ElderCousinParentsSiblingsDaughter>!$_"
    /// The relation label "elder cousin parent's sibling's son" (raw value inferred).
    public static let contactRelationElderCousinParentsSiblingsSon =
        "_$!<ElderCousinParentsSiblingsSon>!$_"
    /// The relation label "elder sibling" (raw value inferred).
    public static let contactRelationElderSibling = "_$!<ElderSibling>!$_"
    /// The relation label "elder sibling-in-law" (raw value inferred).
    public static let contactRelationElderSiblingInLaw = "_$!<ElderSiblingInLaw>!$_"
    /// The relation label "elder sister" (raw value inferred).
    public static let contactRelationElderSister = "_$!<ElderSister>!$_"
    /// The relation label "elder sister-in-law" (raw value inferred).
    public static let contactRelationElderSisterInLaw = "_$!<ElderSisterInLaw>!$_"
    /// The relation label "eldest brother" (raw value inferred).
    public static let contactRelationEldestBrother = "_$!<EldestBrother>!$_"
    /// The relation label "eldest sister" (raw value inferred).
    public static let contactRelationEldestSister = "_$!<EldestSister>!$_"
    /// The relation label "father-in-law" (raw value inferred).
    public static let contactRelationFatherInLaw = "_$!<FatherInLaw>!$_"
    /// The relation label "father-in-law husband's father" (raw value inferred).
    public static let contactRelationFatherInLawHusbandsFather = "_$!<FatherInLawHusbandsFather>!$_"
    /// The relation label "father-in-law or stepfather" (raw value inferred).
    public static let contactRelationFatherInLawOrStepfather = "_$!<FatherInLawOrStepfather>!$_"
    /// The relation label "father-in-law wife's father" (raw value inferred).
    public static let contactRelationFatherInLawWifesFather = "_$!<FatherInLawWifesFather>!$_"
    /// The relation label "female cousin" (raw value inferred).
    public static let contactRelationFemaleCousin = "_$!<FemaleCousin>!$_"
    /// The relation label "female friend" (raw value inferred).
    public static let contactRelationFemaleFriend = "_$!<FemaleFriend>!$_"
    /// The relation label "female partner" (raw value inferred).
    public static let contactRelationFemalePartner = "_$!<FemalePartner>!$_"
    /// The relation label "girlfriend" (raw value inferred).
    public static let contactRelationGirlfriend = "_$!<Girlfriend>!$_"
    /// The relation label "girlfriend or boyfriend" (raw value inferred).
    public static let contactRelationGirlfriendOrBoyfriend = "_$!<GirlfriendOrBoyfriend>!$_"
    /// The relation label "grandaunt" (raw value inferred).
    public static let contactRelationGrandaunt = "_$!<Grandaunt>!$_"
    /// The relation label "grandchild" (raw value inferred).
    public static let contactRelationGrandchild = "_$!<Grandchild>!$_"
    /// The relation label "grandchild or sibling's child" (raw value inferred).
    public static let contactRelationGrandchildOrSiblingsChild = "_$!<GrandchildOrSiblingsChild>!$_"
    /// The relation label "granddaughter" (raw value inferred).
    public static let contactRelationGranddaughter = "_$!<Granddaughter>!$_"
    /// The relation label "granddaughter daughter's daughter" (raw value inferred).
    public static let contactRelationGranddaughterDaughtersDaughter =
        "_$!<GranddaughterDaughtersDaughter>!$_"
    /// The relation label "granddaughter son's daughter" (raw value inferred).
    public static let contactRelationGranddaughterSonsDaughter = "_$!<GranddaughterSonsDaughter>!$_"
    /// The relation label "grandfather" (raw value inferred).
    public static let contactRelationGrandfather = "_$!<Grandfather>!$_"
    /// The relation label "grandfather father's father" (raw value inferred).
    public static let contactRelationGrandfatherFathersFather = "_$!<GrandfatherFathersFather>!$_"
    /// The relation label "grandfather mother's father" (raw value inferred).
    public static let contactRelationGrandfatherMothersFather = "_$!<GrandfatherMothersFather>!$_"
    /// The relation label "grandmother" (raw value inferred).
    public static let contactRelationGrandmother = "_$!<Grandmother>!$_"
    /// The relation label "grandmother father's mother" (raw value inferred).
    public static let contactRelationGrandmotherFathersMother = "_$!<GrandmotherFathersMother>!$_"
    /// The relation label "grandmother mother's mother" (raw value inferred).
    public static let contactRelationGrandmotherMothersMother = "_$!<GrandmotherMothersMother>!$_"
    /// The relation label "grandnephew" (raw value inferred).
    public static let contactRelationGrandnephew = "_$!<Grandnephew>!$_"
    /// The relation label "grandnephew brother's grandson" (raw value inferred).
    public static let contactRelationGrandnephewBrothersGrandson =
        "_$!<GrandnephewBrothersGrandson>!$_"
    /// The relation label "grandnephew sister's grandson" (raw value inferred).
    public static let contactRelationGrandnephewSistersGrandson =
        "_$!<GrandnephewSistersGrandson>!$_"
    /// The relation label "grandniece" (raw value inferred).
    public static let contactRelationGrandniece = "_$!<Grandniece>!$_"
    /// The relation label "grandniece brother's granddaughter" (raw value inferred).
    public static let contactRelationGrandnieceBrothersGranddaughter =
        "_$!<GrandnieceBrothersGranddaughter>!$_"
    /// The relation label "grandniece sister's granddaughter" (raw value inferred).
    public static let contactRelationGrandnieceSistersGranddaughter =
        "_$!<GrandnieceSistersGranddaughter>!$_"
    /// The relation label "grandparent" (raw value inferred).
    public static let contactRelationGrandparent = "_$!<Grandparent>!$_"
    /// The relation label "grandson" (raw value inferred).
    public static let contactRelationGrandson = "_$!<Grandson>!$_"
    /// The relation label "grandson daughter's son" (raw value inferred).
    public static let contactRelationGrandsonDaughtersSon = "_$!<GrandsonDaughtersSon>!$_"
    /// The relation label "grandson son's son" (raw value inferred).
    public static let contactRelationGrandsonSonsSon = "_$!<GrandsonSonsSon>!$_"
    /// The relation label "granduncle" (raw value inferred).
    public static let contactRelationGranduncle = "_$!<Granduncle>!$_"
    /// The relation label "great grandchild" (raw value inferred).
    public static let contactRelationGreatGrandchild = "_$!<GreatGrandchild>!$_"
    /// The relation label "great grandchild or sibling's grandchild" (raw value inferred).
    public static let contactRelationGreatGrandchildOrSiblingsGrandchild =
        "_$!<GreatGrandchildOrSiblingsGrandchild>!$_"
    /// The relation label "great granddaughter" (raw value inferred).
    public static let contactRelationGreatGranddaughter = "_$!<GreatGranddaughter>!$_"
    /// The relation label "great grandfather" (raw value inferred).
    public static let contactRelationGreatGrandfather = "_$!<GreatGrandfather>!$_"
    /// The relation label "great grandmother" (raw value inferred).
    public static let contactRelationGreatGrandmother = "_$!<GreatGrandmother>!$_"
    /// The relation label "great grandparent" (raw value inferred).
    public static let contactRelationGreatGrandparent = "_$!<GreatGrandparent>!$_"
    /// The relation label "great grandson" (raw value inferred).
    public static let contactRelationGreatGrandson = "_$!<GreatGrandson>!$_"
    /// The relation label "husband" (raw value inferred).
    public static let contactRelationHusband = "_$!<Husband>!$_"
    /// The relation label "male cousin" (raw value inferred).
    public static let contactRelationMaleCousin = "_$!<MaleCousin>!$_"
    /// The relation label "male friend" (raw value inferred).
    public static let contactRelationMaleFriend = "_$!<MaleFriend>!$_"
    /// The relation label "male partner" (raw value inferred).
    public static let contactRelationMalePartner = "_$!<MalePartner>!$_"
    /// The relation label "mother-in-law" (raw value inferred).
    public static let contactRelationMotherInLaw = "_$!<MotherInLaw>!$_"
    /// The relation label "mother-in-law husband's mother" (raw value inferred).
    public static let contactRelationMotherInLawHusbandsMother = "_$!<MotherInLawHusbandsMother>!$_"
    /// The relation label "mother-in-law or stepmother" (raw value inferred).
    public static let contactRelationMotherInLawOrStepmother = "_$!<MotherInLawOrStepmother>!$_"
    /// The relation label "mother-in-law wife's mother" (raw value inferred).
    public static let contactRelationMotherInLawWifesMother = "_$!<MotherInLawWifesMother>!$_"
    /// The relation label "nephew" (raw value inferred).
    public static let contactRelationNephew = "_$!<Nephew>!$_"
    /// The relation label "nephew brother's son" (raw value inferred).
    public static let contactRelationNephewBrothersSon = "_$!<NephewBrothersSon>!$_"
    /// The relation label "nephew brother's son or husband's sibling's son" (raw value inferred).
    public static let contactRelationNephewBrothersSonOrHusbandsSiblingsSon =
        "_$!<NephewBrothersSonOrHusbandsSiblingsSon>!$_"
    /// The relation label "nephew or cousin" (raw value inferred).
    public static let contactRelationNephewOrCousin = "_$!<NephewOrCousin>!$_"
    /// The relation label "nephew sister's son" (raw value inferred).
    public static let contactRelationNephewSistersSon = "_$!<NephewSistersSon>!$_"
    /// The relation label "nephew sister's son or wife's sibling's son" (raw value inferred).
    public static let contactRelationNephewSistersSonOrWifesSiblingsSon =
        "_$!<NephewSistersSonOrWifesSiblingsSon>!$_"
    /// The relation label "niece" (raw value inferred).
    public static let contactRelationNiece = "_$!<Niece>!$_"
    /// The relation label "niece brother's daughter" (raw value inferred).
    public static let contactRelationNieceBrothersDaughter = "_$!<NieceBrothersDaughter>!$_"
    /// The relation label "niece brother's daughter or husband's sibling's daughter" (raw value
    /// inferred).
    public static let contactRelationNieceBrothersDaughterOrHusbandsSiblingsDaughter =
        "_$!<NieceBrothersDaughterOrHusbandsSiblingsDaughter>!$_"
    /// The relation label "niece or cousin" (raw value inferred).
    public static let contactRelationNieceOrCousin = "_$!<NieceOrCousin>!$_"
    /// The relation label "niece sister's daughter" (raw value inferred).
    public static let contactRelationNieceSistersDaughter = "_$!<NieceSistersDaughter>!$_"
    /// The relation label "niece sister's daughter or wife's sibling's daughter" (raw value
    /// inferred).
    public static let contactRelationNieceSistersDaughterOrWifesSiblingsDaughter =
        "_$!<NieceSistersDaughterOrWifesSiblingsDaughter>!$_"
    /// The relation label "parent-in-law" (raw value inferred).
    public static let contactRelationParentInLaw = "_$!<ParentInLaw>!$_"
    /// The relation label "parent's elder sibling" (raw value inferred).
    public static let contactRelationParentsElderSibling = "_$!<ParentsElderSibling>!$_"
    /// The relation label "parent's sibling" (raw value inferred).
    public static let contactRelationParentsSibling = "_$!<ParentsSibling>!$_"
    /// The relation label "parent's sibling father's elder sibling" (raw value inferred).
    public static let contactRelationParentsSiblingFathersElderSibling =
        "_$!<ParentsSiblingFathersElderSibling>!$_"
    /// The relation label "parent's sibling father's sibling" (raw value inferred).
    public static let contactRelationParentsSiblingFathersSibling =
        "_$!<ParentsSiblingFathersSibling>!$_"
    /// The relation label "parent's sibling father's younger sibling" (raw value inferred).
    public static let contactRelationParentsSiblingFathersYoungerSibling =
        "_$!<ParentsSiblingFathersYoungerSibling>!$_"
    /// The relation label "parent's sibling mother's elder sibling" (raw value inferred).
    public static let contactRelationParentsSiblingMothersElderSibling =
        "_$!<ParentsSiblingMothersElderSibling>!$_"
    /// The relation label "parent's sibling mother's sibling" (raw value inferred).
    public static let contactRelationParentsSiblingMothersSibling =
        "_$!<ParentsSiblingMothersSibling>!$_"
    /// The relation label "parent's sibling mother's younger sibling" (raw value inferred).
    public static let contactRelationParentsSiblingMothersYoungerSibling =
        "_$!<ParentsSiblingMothersYoungerSibling>!$_"
    /// The relation label "parent's younger sibling" (raw value inferred).
    public static let contactRelationParentsYoungerSibling = "_$!<ParentsYoungerSibling>!$_"
    /// The relation label "sibling" (raw value inferred).
    public static let contactRelationSibling = "_$!<Sibling>!$_"
    /// The relation label "sibling-in-law" (raw value inferred).
    public static let contactRelationSiblingInLaw = "_$!<SiblingInLaw>!$_"
    /// The relation label "sibling's child" (raw value inferred).
    public static let contactRelationSiblingsChild = "_$!<SiblingsChild>!$_"
    /// The relation label "sister-in-law" (raw value inferred).
    public static let contactRelationSisterInLaw = "_$!<SisterInLaw>!$_"
    /// The relation label "sister-in-law brother's wife" (raw value inferred).
    public static let contactRelationSisterInLawBrothersWife = "_$!<SisterInLawBrothersWife>!$_"
    /// The relation label "sister-in-law elder brother's wife" (raw value inferred).
    public static let contactRelationSisterInLawElderBrothersWife =
        "_$!<SisterInLawElderBrothersWife>!$_"
    /// The relation label "sister-in-law husband's brother's wife" (raw value inferred).
    public static let contactRelationSisterInLawHusbandsBrothersWife =
        "_$!<SisterInLawHusbandsBrothersWife>!$_"
    /// The relation label "sister-in-law husband's sister" (raw value inferred).
    public static let contactRelationSisterInLawHusbandsSister = "_$!<SisterInLawHusbandsSister>!$_"
    /// The relation label "sister-in-law spouse's sister" (raw value inferred).
    public static let contactRelationSisterInLawSpousesSister = "_$!<SisterInLawSpousesSister>!$_"
    /// The relation label "sister-in-law wife's brother's wife" (raw value inferred).
    public static let contactRelationSisterInLawWifesBrothersWife =
        "_$!<SisterInLawWifesBrothersWife>!$_"
    /// The relation label "sister-in-law wife's sister" (raw value inferred).
    public static let contactRelationSisterInLawWifesSister = "_$!<SisterInLawWifesSister>!$_"
    /// The relation label "sister-in-law younger brother's wife" (raw value inferred).
    public static let contactRelationSisterInLawYoungerBrothersWife =
        "_$!<SisterInLawYoungerBrothersWife>!$_"
    /// The relation label "son-in-law" (raw value inferred).
    public static let contactRelationSonInLaw = "_$!<SonInLaw>!$_"
    /// The relation label "son-in-law or brother-in-law" (raw value inferred).
    public static let contactRelationSonInLawOrBrotherInLaw = "_$!<SonInLawOrBrotherInLaw>!$_"
    /// The relation label "son-in-law or stepson" (raw value inferred).
    public static let contactRelationSonInLawOrStepson = "_$!<SonInLawOrStepson>!$_"
    /// The relation label "stepbrother" (raw value inferred).
    public static let contactRelationStepbrother = "_$!<Stepbrother>!$_"
    /// The relation label "stepchild" (raw value inferred).
    public static let contactRelationStepchild = "_$!<Stepchild>!$_"
    /// The relation label "stepdaughter" (raw value inferred).
    public static let contactRelationStepdaughter = "_$!<Stepdaughter>!$_"
    /// The relation label "stepfather" (raw value inferred).
    public static let contactRelationStepfather = "_$!<Stepfather>!$_"
    /// The relation label "stepmother" (raw value inferred).
    public static let contactRelationStepmother = "_$!<Stepmother>!$_"
    /// The relation label "stepparent" (raw value inferred).
    public static let contactRelationStepparent = "_$!<Stepparent>!$_"
    /// The relation label "stepsister" (raw value inferred).
    public static let contactRelationStepsister = "_$!<Stepsister>!$_"
    /// The relation label "stepson" (raw value inferred).
    public static let contactRelationStepson = "_$!<Stepson>!$_"
    /// The relation label "teacher" (raw value inferred).
    public static let contactRelationTeacher = "_$!<Teacher>!$_"
    /// The relation label "uncle" (raw value inferred).
    public static let contactRelationUncle = "_$!<Uncle>!$_"
    /// The relation label "uncle father's brother" (raw value inferred).
    public static let contactRelationUncleFathersBrother = "_$!<UncleFathersBrother>!$_"
    /// The relation label "uncle father's elder brother" (raw value inferred).
    public static let contactRelationUncleFathersElderBrother = "_$!<UncleFathersElderBrother>!$_"
    /// The relation label "uncle father's elder sister's husband" (raw value inferred).
    public static let contactRelationUncleFathersElderSistersHusband =
        "_$!<UncleFathersElderSistersHusband>!$_"
    /// The relation label "uncle father's sister's husband" (raw value inferred).
    public static let contactRelationUncleFathersSistersHusband =
        "_$!<UncleFathersSistersHusband>!$_"
    /// The relation label "uncle father's younger brother" (raw value inferred).
    public static let contactRelationUncleFathersYoungerBrother =
        "_$!<UncleFathersYoungerBrother>!$_"
    /// The relation label "uncle father's younger sister's husband" (raw value inferred).
    public static let contactRelationUncleFathersYoungerSistersHusband =
        "_$!<UncleFathersYoungerSistersHusband>!$_"
    /// The relation label "uncle mother's brother" (raw value inferred).
    public static let contactRelationUncleMothersBrother = "_$!<UncleMothersBrother>!$_"
    /// The relation label "uncle mother's elder brother" (raw value inferred).
    public static let contactRelationUncleMothersElderBrother = "_$!<UncleMothersElderBrother>!$_"
    /// The relation label "uncle mother's sister's husband" (raw value inferred).
    public static let contactRelationUncleMothersSistersHusband =
        "_$!<UncleMothersSistersHusband>!$_"
    /// The relation label "uncle mother's younger brother" (raw value inferred).
    public static let contactRelationUncleMothersYoungerBrother =
        "_$!<UncleMothersYoungerBrother>!$_"
    /// The relation label "uncle parent's brother" (raw value inferred).
    public static let contactRelationUncleParentsBrother = "_$!<UncleParentsBrother>!$_"
    /// The relation label "uncle parent's elder brother" (raw value inferred).
    public static let contactRelationUncleParentsElderBrother = "_$!<UncleParentsElderBrother>!$_"
    /// The relation label "uncle parent's younger brother" (raw value inferred).
    public static let contactRelationUncleParentsYoungerBrother =
        "_$!<UncleParentsYoungerBrother>!$_"
    /// The relation label "wife" (raw value inferred).
    public static let contactRelationWife = "_$!<Wife>!$_"
    /// The relation label "younger brother" (raw value inferred).
    public static let contactRelationYoungerBrother = "_$!<YoungerBrother>!$_"
    /// The relation label "younger brother-in-law" (raw value inferred).
    public static let contactRelationYoungerBrotherInLaw = "_$!<YoungerBrotherInLaw>!$_"
    /// The relation label "younger cousin" (raw value inferred).
    public static let contactRelationYoungerCousin = "_$!<YoungerCousin>!$_"
    /// The relation label "younger cousin father's brother's daughter" (raw value inferred).
    public static let contactRelationYoungerCousinFathersBrothersDaughter =
        "_$!<YoungerCousinFathersBrothersDaughter>!$_"
    /// The relation label "younger cousin father's brother's son" (raw value inferred).
    public static let contactRelationYoungerCousinFathersBrothersSon =
        "_$!<YoungerCousinFathersBrothersSon>!$_"
    /// The relation label "younger cousin father's sister's daughter" (raw value inferred).
    public static let contactRelationYoungerCousinFathersSistersDaughter =
        "_$!<YoungerCousinFathersSistersDaughter>!$_"
    /// The relation label "younger cousin father's sister's son" (raw value inferred).
    public static let contactRelationYoungerCousinFathersSistersSon =
        "_$!<YoungerCousinFathersSistersSon>!$_"
    /// The relation label "younger cousin mother's brother's daughter" (raw value inferred).
    public static let contactRelationYoungerCousinMothersBrothersDaughter =
        "_$!<YoungerCousinMothersBrothersDaughter>!$_"
    /// The relation label "younger cousin mother's brother's son" (raw value inferred).
    public static let contactRelationYoungerCousinMothersBrothersSon =
        "_$!<YoungerCousinMothersBrothersSon>!$_"
    /// The relation label "younger cousin mother's sibling's daughter or father's sister's
    /// daughter" (raw value inferred).
    public static let contactRelationYoungerCousinMothersSiblingsDaughterOrFathersSistersDaughter =
        "_$!<YoungerCousinMothersSiblingsDaughterOrFathersSistersDaughter>!$_"
    /// The relation label "younger cousin mother's sibling's son or father's sister's son" (raw
    /// value inferred).
    public static let contactRelationYoungerCousinMothersSiblingsSonOrFathersSistersSon =
        "_$!<YoungerCousinMothersSiblingsSonOrFathersSistersSon>!$_"
    /// The relation label "younger cousin mother's sister's daughter" (raw value inferred).
    public static let contactRelationYoungerCousinMothersSistersDaughter =
        "_$!<YoungerCousinMothersSistersDaughter>!$_"
    /// The relation label "younger cousin mother's sister's son" (raw value inferred).
    public static let contactRelationYoungerCousinMothersSistersSon =
        "_$!<YoungerCousinMothersSistersSon>!$_"
    /// The relation label "younger cousin parent's sibling's daughter" (raw value inferred).
    public static let contactRelationYoungerCousinParentsSiblingsDaughter =
        "_$!<YoungerCousinParentsSiblingsDaughter>!$_"
    /// The relation label "younger cousin parent's sibling's son" (raw value inferred).
    public static let contactRelationYoungerCousinParentsSiblingsSon =
        "_$!<YoungerCousinParentsSiblingsSon>!$_"
    /// The relation label "younger sibling" (raw value inferred).
    public static let contactRelationYoungerSibling = "_$!<YoungerSibling>!$_"
    /// The relation label "younger sibling-in-law" (raw value inferred).
    public static let contactRelationYoungerSiblingInLaw = "_$!<YoungerSiblingInLaw>!$_"
    /// The relation label "younger sister" (raw value inferred).
    public static let contactRelationYoungerSister = "_$!<YoungerSister>!$_"
    /// The relation label "younger sister-in-law" (raw value inferred).
    public static let contactRelationYoungerSisterInLaw = "_$!<YoungerSisterInLaw>!$_"
    /// The relation label "youngest brother" (raw value inferred).
    public static let contactRelationYoungestBrother = "_$!<YoungestBrother>!$_"
    /// The relation label "youngest sister" (raw value inferred).
    public static let contactRelationYoungestSister = "_$!<YoungestSister>!$_"

    // MARK: iOS 14.0

    /// The relation label "granddaughter or niece" (raw value inferred).
    public static let contactRelationGranddaughterOrNiece = "_$!<GranddaughterOrNiece>!$_"
    /// The relation label "grandson or nephew" (raw value inferred).
    public static let contactRelationGrandsonOrNephew = "_$!<GrandsonOrNephew>!$_"

    /// Every contact relation label (216 of them), in order of the framework
    /// version that introduced them and alphabetically within a version.
    public static let contactRelationLabels: [String] = [
        contactRelationAssistant,
        contactRelationBrother,
        contactRelationChild,
        contactRelationFather,
        contactRelationFriend,
        contactRelationManager,
        contactRelationMother,
        contactRelationParent,
        contactRelationPartner,
        contactRelationSister,
        contactRelationSpouse,
        contactRelationDaughter,
        contactRelationSon,
        contactRelationAunt,
        contactRelationAuntFathersBrothersWife,
        contactRelationAuntFathersElderBrothersWife,
        contactRelationAuntFathersElderSister,
        contactRelationAuntFathersSister,
        contactRelationAuntFathersYoungerBrothersWife,
        contactRelationAuntFathersYoungerSister,
        contactRelationAuntMothersBrothersWife,
        contactRelationAuntMothersElderSister,
        contactRelationAuntMothersSister,
        contactRelationAuntMothersYoungerSister,
        contactRelationAuntParentsElderSister,
        contactRelationAuntParentsSister,
        contactRelationAuntParentsYoungerSister,
        contactRelationBoyfriend,
        contactRelationBrotherInLaw,
        contactRelationBrotherInLawElderSistersHusband,
        contactRelationBrotherInLawHusbandsBrother,
        contactRelationBrotherInLawHusbandsSistersHusband,
        contactRelationBrotherInLawSistersHusband,
        contactRelationBrotherInLawSpousesBrother,
        contactRelationBrotherInLawWifesBrother,
        contactRelationBrotherInLawWifesSistersHusband,
        contactRelationBrotherInLawYoungerSistersHusband,
        contactRelationChildInLaw,
        contactRelationCoBrotherInLaw,
        contactRelationCoFatherInLaw,
        contactRelationCoMotherInLaw,
        contactRelationCoParentInLaw,
        contactRelationCoSiblingInLaw,
        contactRelationCoSisterInLaw,
        contactRelationColleague,
        contactRelationCousin,
        contactRelationCousinFathersBrothersDaughter,
        contactRelationCousinFathersBrothersSon,
        contactRelationCousinFathersSistersDaughter,
        contactRelationCousinFathersSistersSon,
        contactRelationCousinGrandparentsSiblingsChild,
        contactRelationCousinGrandparentsSiblingsDaughter,
        contactRelationCousinGrandparentsSiblingsSon,
        contactRelationCousinMothersBrothersDaughter,
        contactRelationCousinMothersBrothersSon,
        contactRelationCousinMothersSistersDaughter,
        contactRelationCousinMothersSistersSon,
        contactRelationCousinOrSiblingsChild,
        contactRelationCousinParentsSiblingsChild,
        contactRelationCousinParentsSiblingsDaughter,
        contactRelationCousinParentsSiblingsSon,
        contactRelationDaughterInLaw,
        contactRelationDaughterInLawOrSisterInLaw,
        contactRelationDaughterInLawOrStepdaughter,
        contactRelationElderBrother,
        contactRelationElderBrotherInLaw,
        contactRelationElderCousin,
        contactRelationElderCousinFathersBrothersDaughter,
        contactRelationElderCousinFathersBrothersSon,
        contactRelationElderCousinFathersSistersDaughter,
        contactRelationElderCousinFathersSistersSon,
        contactRelationElderCousinMothersBrothersDaughter,
        contactRelationElderCousinMothersBrothersSon,
        contactRelationElderCousinMothersSiblingsDaughterOrFathersSistersDaughter,
        contactRelationElderCousinMothersSiblingsSonOrFathersSistersSon,
        contactRelationElderCousinMothersSistersDaughter,
        contactRelationElderCousinMothersSistersSon,
        contactRelationElderCousinParentsSiblingsDaughter,
        contactRelationElderCousinParentsSiblingsSon,
        contactRelationElderSibling,
        contactRelationElderSiblingInLaw,
        contactRelationElderSister,
        contactRelationElderSisterInLaw,
        contactRelationEldestBrother,
        contactRelationEldestSister,
        contactRelationFatherInLaw,
        contactRelationFatherInLawHusbandsFather,
        contactRelationFatherInLawOrStepfather,
        contactRelationFatherInLawWifesFather,
        contactRelationFemaleCousin,
        contactRelationFemaleFriend,
        contactRelationFemalePartner,
        contactRelationGirlfriend,
        contactRelationGirlfriendOrBoyfriend,
        contactRelationGrandaunt,
        contactRelationGrandchild,
        contactRelationGrandchildOrSiblingsChild,
        contactRelationGranddaughter,
        contactRelationGranddaughterDaughtersDaughter,
        contactRelationGranddaughterSonsDaughter,
        contactRelationGrandfather,
        contactRelationGrandfatherFathersFather,
        contactRelationGrandfatherMothersFather,
        contactRelationGrandmother,
        contactRelationGrandmotherFathersMother,
        contactRelationGrandmotherMothersMother,
        contactRelationGrandnephew,
        contactRelationGrandnephewBrothersGrandson,
        contactRelationGrandnephewSistersGrandson,
        contactRelationGrandniece,
        contactRelationGrandnieceBrothersGranddaughter,
        contactRelationGrandnieceSistersGranddaughter,
        contactRelationGrandparent,
        contactRelationGrandson,
        contactRelationGrandsonDaughtersSon,
        contactRelationGrandsonSonsSon,
        contactRelationGranduncle,
        contactRelationGreatGrandchild,
        contactRelationGreatGrandchildOrSiblingsGrandchild,
        contactRelationGreatGranddaughter,
        contactRelationGreatGrandfather,
        contactRelationGreatGrandmother,
        contactRelationGreatGrandparent,
        contactRelationGreatGrandson,
        contactRelationHusband,
        contactRelationMaleCousin,
        contactRelationMaleFriend,
        contactRelationMalePartner,
        contactRelationMotherInLaw,
        contactRelationMotherInLawHusbandsMother,
        contactRelationMotherInLawOrStepmother,
        contactRelationMotherInLawWifesMother,
        contactRelationNephew,
        contactRelationNephewBrothersSon,
        contactRelationNephewBrothersSonOrHusbandsSiblingsSon,
        contactRelationNephewOrCousin,
        contactRelationNephewSistersSon,
        contactRelationNephewSistersSonOrWifesSiblingsSon,
        contactRelationNiece,
        contactRelationNieceBrothersDaughter,
        contactRelationNieceBrothersDaughterOrHusbandsSiblingsDaughter,
        contactRelationNieceOrCousin,
        contactRelationNieceSistersDaughter,
        contactRelationNieceSistersDaughterOrWifesSiblingsDaughter,
        contactRelationParentInLaw,
        contactRelationParentsElderSibling,
        contactRelationParentsSibling,
        contactRelationParentsSiblingFathersElderSibling,
        contactRelationParentsSiblingFathersSibling,
        contactRelationParentsSiblingFathersYoungerSibling,
        contactRelationParentsSiblingMothersElderSibling,
        contactRelationParentsSiblingMothersSibling,
        contactRelationParentsSiblingMothersYoungerSibling,
        contactRelationParentsYoungerSibling,
        contactRelationSibling,
        contactRelationSiblingInLaw,
        contactRelationSiblingsChild,
        contactRelationSisterInLaw,
        contactRelationSisterInLawBrothersWife,
        contactRelationSisterInLawElderBrothersWife,
        contactRelationSisterInLawHusbandsBrothersWife,
        contactRelationSisterInLawHusbandsSister,
        contactRelationSisterInLawSpousesSister,
        contactRelationSisterInLawWifesBrothersWife,
        contactRelationSisterInLawWifesSister,
        contactRelationSisterInLawYoungerBrothersWife,
        contactRelationSonInLaw,
        contactRelationSonInLawOrBrotherInLaw,
        contactRelationSonInLawOrStepson,
        contactRelationStepbrother,
        contactRelationStepchild,
        contactRelationStepdaughter,
        contactRelationStepfather,
        contactRelationStepmother,
        contactRelationStepparent,
        contactRelationStepsister,
        contactRelationStepson,
        contactRelationTeacher,
        contactRelationUncle,
        contactRelationUncleFathersBrother,
        contactRelationUncleFathersElderBrother,
        contactRelationUncleFathersElderSistersHusband,
        contactRelationUncleFathersSistersHusband,
        contactRelationUncleFathersYoungerBrother,
        contactRelationUncleFathersYoungerSistersHusband,
        contactRelationUncleMothersBrother,
        contactRelationUncleMothersElderBrother,
        contactRelationUncleMothersSistersHusband,
        contactRelationUncleMothersYoungerBrother,
        contactRelationUncleParentsBrother,
        contactRelationUncleParentsElderBrother,
        contactRelationUncleParentsYoungerBrother,
        contactRelationWife,
        contactRelationYoungerBrother,
        contactRelationYoungerBrotherInLaw,
        contactRelationYoungerCousin,
        contactRelationYoungerCousinFathersBrothersDaughter,
        contactRelationYoungerCousinFathersBrothersSon,
        contactRelationYoungerCousinFathersSistersDaughter,
        contactRelationYoungerCousinFathersSistersSon,
        contactRelationYoungerCousinMothersBrothersDaughter,
        contactRelationYoungerCousinMothersBrothersSon,
        contactRelationYoungerCousinMothersSiblingsDaughterOrFathersSistersDaughter,
        contactRelationYoungerCousinMothersSiblingsSonOrFathersSistersSon,
        contactRelationYoungerCousinMothersSistersDaughter,
        contactRelationYoungerCousinMothersSistersSon,
        contactRelationYoungerCousinParentsSiblingsDaughter,
        contactRelationYoungerCousinParentsSiblingsSon,
        contactRelationYoungerSibling,
        contactRelationYoungerSiblingInLaw,
        contactRelationYoungerSister,
        contactRelationYoungerSisterInLaw,
        contactRelationYoungestBrother,
        contactRelationYoungestSister,
        contactRelationGranddaughterOrNiece,
        contactRelationGrandsonOrNephew,
    ]
}
